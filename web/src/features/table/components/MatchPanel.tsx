import { Link } from "react-router";
import type { Address } from "viem";
import { gameOfMatch, matchTableOf, scoreLine } from "@dicehall/core/game/match.ts";
import { sameAddress, STATUS_NAMES } from "@dicehall/core/game/gameState.ts";
import { AddressName } from "@/ui/Address.tsx";
import { MatchStandings } from "@/ui/table/MatchStandings.tsx";
import type { GameView } from "@/data/gameData.ts";
import type { useGame } from "../hooks/useGame.ts";

type Game = ReturnType<typeof useGame>;

/**
 * Where a match stands, from the viewer's side, from getGame's own count of games won:
 * "Game 2 of 5 · you 1 – 0 Bob"; once over, "3 of 3 games played · you 2 – 1 Bob". Null for a
 * single game.
 */
export function matchLineOfView(
  view: Pick<GameView, "games" | "gameNumber" | "players" | "wins" | "status">,
  name: (a: Address) => string,
  me: Address | undefined,
  played: number,
): string | null {
  if (view.games <= 1) return null;
  const all = view.players.map((_, i) => i);
  const mine = view.players.findIndex((p) => sameAddress(p, me));
  const order = mine >= 0 ? [mine, ...all.filter((i) => i !== mine)] : all;
  const entries = order.map((i) => ({
    name: i === mine ? "you" : name(view.players[i]),
    wins: view.wins[i] ?? 0,
  }));
  const status = STATUS_NAMES[view.status];
  const head =
    status === "finished" || status === "cancelled"
      ? `${played} of ${view.games} games played`
      : gameOfMatch(view.gameNumber, view.games);
  return `${head} · ${scoreLine(entries)}`;
}

/** The match's line over the table. */
export function MatchLine({ game }: { game: Game }) {
  const { view, state, words, me } = game;
  if (!view || view.games <= 1) return null;
  const line = matchLineOfView(view, words.name, me, state?.match.games.length ?? 0);
  return (
    <p className="match-line" data-testid="match-line" aria-live="polite">
      {line}
    </p>
  );
}

/**
 * A match's standings game by game (most games won, then points), each finished game with its
 * replay and its analysis: during the match beside the table, and on its end screen.
 */
export function MatchPanel({ game, gameId }: { game: Game; gameId: bigint }) {
  const { view, state, words } = game;
  if (!view || !state || view.games <= 1) return null;
  const table = matchTableOf(state);
  if (table.players.length === 0) return null;
  const over = state.status === "finished";
  return (
    <MatchStandings
      title={over ? "The match, game by game" : "Standings"}
      names={table.players.map((p) => (
        <AddressName key={p} address={p} />
      ))}
      labels={table.players.map(words.name)}
      games={table.games}
      length={view.games}
      forfeited={table.forfeited}
      gameLinks={(n) => (
        <span className="match-standings__links">
          <Link to={`/games/${gameId}/replay?game=${n}`}>Replay game {n}</Link>
          {" · "}
          <Link to={`/games/${gameId}/analysis?game=${n}`}>Analysis of game {n}</Link>
        </span>
      )}
    />
  );
}
