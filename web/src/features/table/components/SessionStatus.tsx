import { useEffect, useRef, useState } from "react";
import type { Address } from "viem";
import { useQueryClient } from "@tanstack/react-query";
import { gameSessionNeeds, sessionExpiry, sessionLowOn } from "@dicehall/core/contract/session.ts";
import { formatTimestamp, formatTokenAmount } from "@dicehall/core/game/format.ts";
import { describeError } from "@/chain/errors.ts";
import type { Hall } from "@/chain/hall.ts";
import { sessionGameOf, signerSentence } from "@/chain/session.ts";
import {
  sessionGrant,
  sessionOffer,
  usePlayerSession,
  type PlayerSession,
} from "@/chain/sessionHooks.ts";
import { useChainNow } from "@/ui/useNow.ts";
import { payOutSession, type Payout } from "@/chain/sessionPayout.ts";
import { NATIVE } from "@/chain/tokens.ts";
import { hallCall, PHASE_TEXT, useTx } from "@/chain/tx.ts";
import { queryKeys } from "@/data/queryKeys.ts";

/**
 * Who signs this player's moves, in words ("Moves signed by this browser's session key, until
 * 21:40"), with Revoke; and a top-up in one confirmation when the key runs low (offered between
 * moves only, never while a roll is out).
 */
export function SessionStatus({
  hall,
  me,
  session,
  credit,
  rollFee,
  gasPrice,
  boxesLeft,
  betweenMoves,
  seats,
  moveTimeout,
  nowSec,
}: {
  hall: Hall;
  me: Address;
  session: PlayerSession;
  /** The player's native credit (what roll fees are paid from). */
  credit: bigint | undefined;
  rollFee: bigint | undefined;
  gasPrice: bigint | undefined;
  /** Turns the player has left. */
  boxesLeft: number;
  /** No roll of the player's is pending and nothing is being sent. */
  betweenMoves: boolean;
  seats: number;
  moveTimeout: number;
  nowSec: number;
}) {
  const tx = useTx({ nativeSymbol: hall.chain.nativeCurrency.symbol });
  const { signer, signingKey, onChain, keyBalance } = session;

  // --- During the game: who signs, Revoke, and a top-up when the key runs low.
  const lowOn =
    signingKey &&
    keyBalance !== undefined &&
    onChain &&
    credit !== undefined &&
    rollFee !== undefined &&
    gasPrice !== undefined
      ? sessionLowOn({
          keyBalance,
          allowanceLeft: onChain.feeAllowance,
          credit,
          rollFee,
          gasPrice,
        })
      : null;
  const topUp = async () => {
    if (rollFee === undefined || gasPrice === undefined) return;
    const needs = gameSessionNeeds(Math.max(1, boxesLeft), rollFee, gasPrice);
    const expiresAt = sessionExpiry({
      nowSec,
      joinWindow: 0,
      moveTimeout,
      seats,
      boxes: Math.max(1, boxesLeft),
    });
    const offer = sessionOffer({ needs, token: NATIVE, bet: 0n, expiresAt });
    const grant = await sessionGrant(hall, me, offer);
    if (!grant) return;
    await tx.run(hallCall(hall.address, "openSession", [grant], offer.value));
  };
  const revoke = () => void tx.run(hallCall(hall.address, "revokeSession", []));

  const until = signer.by === "key" ? formatTimestamp(signer.until) : "";
  const lowWords =
    lowOn === "gas"
      ? "The session key is running out of gas."
      : lowOn === "allowance"
        ? "The session key has nearly spent the roll fees it may spend."
        : lowOn === "credit"
          ? "Your credit in the hall is nearly out of roll fees."
          : null;
  return (
    <div className="session-status" data-testid="session-status">
      <p className="muted small">
        {signerSentence(signer, until)}
        {signingKey && (
          <>
            {" "}
            <button
              type="button"
              className="button button--quiet button--small"
              disabled={tx.busy}
              onClick={revoke}
            >
              Revoke
            </button>
          </>
        )}
      </p>
      {lowWords && betweenMoves && (
        <p className="small">
          {lowWords} Top it up in one confirmation now, so the next moves need none.{" "}
          <button
            type="button"
            className="button button--small"
            disabled={tx.busy}
            onClick={() => void topUp()}
          >
            Top up the session key
          </button>
        </p>
      )}
      {tx.busy && <p className="tx tx--busy">{PHASE_TEXT[tx.phase]}</p>}
      {tx.error && (
        <p className="tx tx--error" role="alert">
          {tx.error.message}
        </p>
      )}
    </div>
  );
}

/**
 * The end of a game played with this browser's key (finished or cancelled): the key pays the
 * player's credit out to the player's own address (winnings, refunds, unspent roll fees) and
 * sends its leftover gas back, with no confirmation. Only for the game the key was last granted
 * for: a finished game opened later, while the key plays another, leaves it alone.
 */
export function SessionPayout({
  hall,
  me,
  gameId,
  token,
  session,
}: {
  hall: Hall;
  me: Address;
  gameId: bigint;
  /** The game's bet token. */
  token: Address;
  session: PlayerSession;
}) {
  const queryClient = useQueryClient();
  const native = hall.chain.nativeCurrency;
  const coin = (v: bigint) => formatTokenAmount(v, native, 6);
  const { signingKey, key, keyBalance } = session;
  const [payout, setPayout] = useState<Payout | null>(null);
  const [error, setError] = useState<string | null>(null);
  const paying = useRef(false);
  const ours = sessionGameOf(hall.chainId, me) === gameId;
  const due = ours && !!key && keyBalance !== undefined && (signingKey !== null || keyBalance > 0n);
  useEffect(() => {
    if (!due || !key || paying.current || payout) return;
    paying.current = true;
    void payOutSession(hall, key, me, [token, NATIVE], signingKey !== null)
      .then((result) => {
        setPayout(result);
        void queryClient.invalidateQueries({ queryKey: queryKeys.hall(hall.scope) });
        void queryClient.invalidateQueries({ queryKey: queryKeys.balancesOnChain(hall.chainId) });
      })
      .catch((err: unknown) => {
        setError(describeError(err, { nativeSymbol: native.symbol }).message);
        paying.current = false;
      });
  }, [due, key, signingKey, hall, me, token, payout, queryClient, native.symbol]);

  if (payout) {
    if (payout.withdrawn.size === 0 && payout.gasReturned === 0n) return null;
    return (
      <p className="muted small" data-testid="session-payout" role="status">
        {payout.withdrawn.size > 0 &&
          "Your credit in the hall (winnings, refunds and unused roll fees) was sent to your wallet by the session key. "}
        {payout.gasReturned > 0n &&
          `The session key sent back its unused gas: ${coin(payout.gasReturned)}.`}
      </p>
    );
  }
  if (error) {
    return (
      <p className="tx tx--error" role="alert">
        The session key could not pay out: {error} Your credit stays in the hall; withdraw it with
        the button below.
      </p>
    );
  }
  return due ? (
    <p className="muted small" role="status">
      The session key is sending your credit and its unused gas back to your wallet…
    </p>
  ) : null;
}

/** SessionPayout for a page that does not read the session itself (a cancelled table). */
export function SessionPayoutFor({
  hall,
  me,
  gameId,
  token,
}: {
  hall: Hall;
  me: Address;
  gameId: bigint;
  token: Address;
}) {
  const nowMs = useChainNow(10_000);
  const session = usePlayerSession(me, Math.floor(nowMs / 1000));
  return <SessionPayout hall={hall} me={me} gameId={gameId} token={token} session={session} />;
}
