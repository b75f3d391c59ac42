// Games in a known state for the pages that only need to be looked at (the accessibility audit and
// the screenshots), made through the contract: a finished game, a game in the middle of a turn, an
// open lobby. All three involve dev account 0, which the pages then connect as. Made once per run.
import type { Address } from "viem";

import {
  STATUS,
  currentPlayer,
  gameView,
  openLobby,
  playToEnd,
  playTurnOnChain,
  rollOnChain,
  startGame,
} from "./chain.ts";
import type { E2EStack } from "./stack.ts";

export interface Fixtures {
  /** The account the pages connect as (dev account 0): a player in `finished` and `midGame`. */
  viewerIndex: number;
  viewer: Address;
  /** A finished two-player game. */
  finished: bigint;
  /** A running game at round 3, the viewer's turn, one roll on the table. */
  midGame: bigint;
  /** A lobby of someone else's, waiting for a second player. */
  lobby: bigint;
}

let made: Promise<Fixtures> | undefined;

export function fixtures(stack: E2EStack): Promise<Fixtures> {
  made ??= make(stack);
  return made;
}

async function make(stack: E2EStack): Promise<Fixtures> {
  const [viewer] = stack.accounts;
  const [rivalA, rivalB, host] = stack.accounts.slice(12, 15);

  const finished = await startGame(stack, viewer, rivalA);
  await playToEnd(stack, finished);

  const midGame = await startGame(stack, viewer, rivalB);
  for (let turn = 0; turn < 4; turn++) await playTurnOnChain(stack, midGame);
  if ((await currentPlayer(stack, midGame)) !== viewer) await playTurnOnChain(stack, midGame);
  await rollOnChain(stack, midGame);
  const view = await gameView(stack, midGame);
  if (view.status !== STATUS.Running || view.players[view.currentSeat] !== viewer) {
    throw new Error(`fixture game ${midGame} is not at the viewer's turn`);
  }

  const lobby = await openLobby(stack, host);
  return { viewerIndex: 0, viewer, finished, midGame, lobby };
}
