import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Address, LocalAccount } from "viem";
import { formatTokenAmount } from "@dicehall/core/game/format.ts";
import { STATUS_NAMES, sameAddress } from "@dicehall/core/game/gameState.ts";
import { keyCanMove } from "@dicehall/core/contract/session.ts";
import { boxCount } from "@dicehall/core/rules/ruleSets.ts";
import { usePlayerSession, useSessionPrices } from "@/chain/sessionHooks.ts";
import { NATIVE } from "@/chain/tokens.ts";
import { useCredits } from "@/data/gameData.ts";
import { fetchRollFee, useRollFee } from "@/chain/settings.ts";
import { GameTable } from "@/ui/table/GameTable.tsx";
import type { TableHandlers } from "@dicehall/core/game/tableModel.ts";
import { rollValue } from "@dicehall/core/contract/gas.ts";
import { hallCall, PHASE_TEXT, useTx, type WriteRequest } from "@/chain/tx.ts";
import { deliveryRequest } from "@/chain/delivery.ts";
import { AddressName } from "@/ui/Address.tsx";
import { useLater } from "@/ui/Later.tsx";
import { useChainClockAnchor, useChainNow } from "@/ui/useNow.ts";
import type { useGame } from "../hooks/useGame.ts";
import { useKeepMask } from "../hooks/useKeepMask.ts";
import { useTurnAlert } from "../hooks/useTurnAlert.ts";
import { SessionStatus } from "./SessionStatus.tsx";
import { useClaimBlock } from "../hooks/useClaimBlock.ts";
import {
  buildTableModel,
  claimCallsOff,
  claimErrorOutdated,
  claimLabel,
  claimOffer,
  claimSettlesMatch,
  moveDeadlineMs,
  stalledRequest,
} from "../hooks/tableModel.ts";

type Game = ReturnType<typeof useGame>;
type Move = "roll" | "score" | "claim";
const NO_ONE: readonly Address[] = [];

/** The running (or finished) table, wired to the chain. */
export function PlayPanel({ game, gameId }: { game: Game; gameId: bigint }) {
  const { hall, view, state, snapshot, me, words, playContext } = game;
  // The table is drawn first; the reads it can do without for a task (the chain's clock for the
  // countdown, the roll fee for the button, the gas price for a session) start in the next one.
  const later = useLater();
  const nowMs = useChainNow(1_000, later);
  const clockKnown = useChainClockAnchor(later) !== undefined;
  const rollFee = useRollFee(gameId, later);
  const tx = useTx(playContext);
  // A move counts as in flight until the snapshot has caught up with the block that holds it, so
  // the dice keep tumbling from the click until the chain's answer is on screen.
  const [inFlight, setInFlight] = useState<{
    move: Move;
    box?: number;
    untilBlock: bigint | null;
  } | null>(null);
  const turnKey = view ? `${view.round}:${view.currentSeat}` : "";
  const [deliverError, setDeliverError] = useState<string | null>(null);
  // A delivery's error is about one request: once its dice are in (whoever delivered them), it goes.
  const pendingSequence = view?.pendingSequence;
  useEffect(() => setDeliverError(null), [pendingSequence]);
  const [keepMask, setKeepMask] = useKeepMask(`dicehall.keep.${hall?.chainId}.${gameId}`, turnKey);
  useTurnAlert(gameId, view, state?.forfeited ?? NO_ONE, me, clockKnown ? nowMs : null);
  // Moves go through this browser's session key while its session is live (no wallet opens).
  const seated = !!view && view.players.some((p) => sameAddress(p, me));
  const session = usePlayerSession(seated ? me : undefined, Math.floor(nowMs / 1000));
  const prices = useSessionPrices(rollFee.data, later);
  const credit = useCredits(seated ? me : undefined, [NATIVE]).data?.get(NATIVE);
  const keyFor = (move: Move, fee: bigint): LocalAccount | null => {
    const key = session.signingKey;
    if (!key || session.keyBalance === undefined || prices.gasPrice === undefined) return null;
    // A key's roll fee comes from the roll fees set aside for its session, not from the credit.
    const setAside = session.onChain?.feeAllowance ?? 0n;
    const funds = {
      keyBalance: session.keyBalance,
      allowanceLeft: setAside,
      credit: setAside,
      rollFee: fee,
      gasPrice: prices.gasPrice,
    };
    return keyCanMove(move, funds) ? key : null;
  };

  const syncedTo = snapshot.data?.syncedTo ?? 0n;
  const sending =
    inFlight && (inFlight.untilBlock === null || syncedTo < inFlight.untilBlock)
      ? inFlight.move
      : null;
  const scoringBox = sending === "score" ? (inFlight?.box ?? null) : null;

  const native = hall?.chain.nativeCurrency;
  const model = useMemo(() => {
    if (!view || !state || !snapshot.data) return null;
    return buildTableModel({
      state,
      view,
      players: snapshot.data.players,
      me,
      nowMs,
      clockKnown,
      keepMask,
      sending,
      scoringBox,
      rollFee:
        rollFee.data === undefined || !native
          ? null
          : rollFee.data === 0n
            ? ""
            : formatTokenAmount(rollFee.data, native, 6),
      words,
      busyText: tx.busy ? PHASE_TEXT[tx.phase] : null,
      errorText: deliverError ?? tx.error?.message ?? null,
    });
  }, [
    view,
    state,
    snapshot.data,
    me,
    nowMs,
    clockKnown,
    keepMask,
    sending,
    scoringBox,
    rollFee.data,
    native,
    words,
    tx.busy,
    tx.phase,
    tx.error,
    deliverError,
  ]);

  // The claim is offered by the latest block, as the contract judges it (claimOffer); the block
  // is read at the watcher's pace only around the deadline.
  const deadline = view ? moveDeadlineMs(view) : null;
  const latestBlock = useClaimBlock(
    hall,
    deadline === null ? null : deadline / 1000,
    nowMs,
    clockKnown,
  );
  // The block that was latest when a claim failed: a later one past the deadline clears the error.
  const [claimFailedAt, setClaimFailedAt] = useState<bigint | null>(null);
  const latestRef = useRef(latestBlock);
  latestRef.current = latestBlock;
  const resetTx = tx.reset;
  useEffect(() => {
    if (view && claimErrorOutdated(claimFailedAt, latestBlock, view)) {
      setClaimFailedAt(null);
      resetTx();
    }
  }, [claimFailedAt, latestBlock, view, resetTx]);

  const send = useCallback(
    async (move: Move, request: WriteRequest, box?: number, key?: LocalAccount | null) => {
      setInFlight({ move, box, untilBlock: null });
      setClaimFailedAt(null);
      const receipt = await tx.run(request, key);
      setInFlight(receipt ? { move, box, untilBlock: receipt.blockNumber } : null);
      if (!receipt && move === "claim") setClaimFailedAt(latestRef.current?.number ?? 0n);
    },
    [tx],
  );

  // A stalled request is never asked again: any seated player's app can deliver its public number.
  const stalled = view && clockKnown ? stalledRequest(view, nowMs) : null;
  const deliver = useCallback(() => {
    if (!hall || !view || stalled === null) return;
    setDeliverError(null);
    void (async () => {
      try {
        // Anyone may deliver: the session key does it, when there is one (no wallet opens).
        await send(
          "roll",
          await deliveryRequest(hall, view.provider, stalled),
          undefined,
          keyFor("claim", 0n),
        );
      } catch (err) {
        setDeliverError(err instanceof Error ? err.message : String(err));
      }
    })();
    // keyFor reads the session, its balance and the prices of this render.
  }, [hall, view, stalled, send, session, prices, credit]);

  const handlers = useMemo<TableHandlers>(
    () => ({
      onRoll: () => {
        if (!hall || !model?.canRoll) return;
        void (async () => {
          // The fee is read again right before sending (the provider may have raised it), with a
          // small buffer on top: the contract credits back whatever is over the fee.
          const fee = await fetchRollFee(hall, gameId).catch(() => rollFee.data ?? 0n);
          // Never more than the game's fee cap: a dearer quote is a refusal, its value credited back.
          const cap = view?.rollFeeCap ?? 0n;
          const value = cap > 0n && rollValue(fee) > cap ? cap : rollValue(fee);
          // The model's mask: a roll asked again keeps its first request's, a first roll keeps none.
          // A session key's roll carries no value: the fee comes from the player's credit.
          const key = keyFor("roll", fee);
          await send(
            "roll",
            hallCall(hall.address, "roll", [gameId, model.keepMask], key ? 0n : value),
            undefined,
            key,
          );
        })();
      },
      onToggleKeep: (die) => setKeepMask(keepMask ^ (1 << die)),
      onScore: (box) => {
        if (!hall) return;
        void send(
          "score",
          hallCall(hall.address, "score", [gameId, box]),
          box,
          keyFor("score", 0n),
        );
      },
    }),
    // keyFor reads the session, its balance and the prices of this render.
    [hall, model, view, keepMask, setKeepMask, send, gameId, rollFee.data, session, prices, credit],
  );

  if (!model || !view || !hall) return null;

  const current = model.currentSeat === null ? null : view.players[model.currentSeat];
  const callsOff = claimCallsOff(view);
  const settles = claimSettlesMatch(view);
  const offer = claimOffer({
    view,
    me,
    myTurn: model.myTurn,
    sending,
    nowMs,
    clockKnown,
    latestBlockSec: latestBlock?.timestamp,
  });
  const canClaim = offer === "open";
  const spectator = !!view && !model.players.some((p) => p.isMe);
  // What claimTimeout would do now, in words; null when it can't be claimed.
  const claimWhy = !canClaim ? null : settles ? (
    <>
      Nobody made game {view.gameNumber}&apos;s first roll in time. Anyone can end the match on the{" "}
      {view.gameNumber - 1} games played: the most games won takes the pot, then the most points,
      else it is split, less the house fee.
    </>
  ) : callsOff ? (
    <>
      {view.entropyAttempts > 0
        ? "The randomness provider has not delivered this roll for the game's whole call-off window."
        : "Nobody made the first roll in time."}{" "}
      Anyone can call the game off: every player still in gets an equal share of the pot back, with
      no house fee.
    </>
  ) : current ? (
    <>
      <AddressName address={current} /> ran out of time. Anyone can time them out: they forfeit
      their seat and play goes on.
    </>
  ) : null;

  const canDeliver =
    seated && stalled !== null && !canClaim && sending === null && !!hall.deployment.revelations;

  const actions = (
    <>
      {canDeliver && (
        <div className="claim">
          <p>
            The randomness provider has not delivered request #{String(stalled)} yet. It is never
            asked again, and its number is already public on the provider&apos;s revelation service,
            so you can deliver it to Pyth Entropy yourself and play goes on. It costs you gas only;
            the dice stay whose roll it is.
          </p>
          <button type="button" className="button" onClick={deliver}>
            Deliver the dice
          </button>
        </div>
      )}
      {offer === "next block" && (
        <p className="muted small claim-wait" role="status">
          Time is up by the chain&apos;s clock; the claim opens with the chain&apos;s next block.
        </p>
      )}
      {claimWhy && (
        <div className="claim">
          <p>{claimWhy}</p>
          <button
            type="button"
            className="button button--warn"
            onClick={() =>
              void send(
                "claim",
                hallCall(hall.address, "claimTimeout", [gameId]),
                undefined,
                keyFor("claim", 0n),
              )
            }
          >
            {claimLabel(view)}
          </button>
        </div>
      )}
      {seated && me && STATUS_NAMES[view.status] === "running" && (
        <SessionStatus
          hall={hall}
          me={me}
          gameId={gameId}
          session={session}
          credit={credit}
          rollFee={rollFee.data}
          gasPrice={prices.gasPrice}
          // In a match, the games after this one too: a top-up lasts to the match's end.
          boxesLeft={
            boxCount(view.config.ruleSet) * (view.games - view.gameNumber + 1) -
            Math.max(0, view.round - 1)
          }
          betweenMoves={
            sending === null && !(state?.pendingRoll && sameAddress(state.pendingRoll.player, me))
          }
          seats={view.config.seats}
          moveTimeout={view.config.moveTimeout}
          nowSec={Math.floor(nowMs / 1000)}
        />
      )}
      {spectator && STATUS_NAMES[view.status] === "running" && (
        <p className="muted small">You are watching this game.</p>
      )}
    </>
  );

  return <GameTable model={model} handlers={handlers} actions={actions} guardScores />;
}
