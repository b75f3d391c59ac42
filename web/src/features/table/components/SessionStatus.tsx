import { useState } from "react";
import type { Address } from "viem";
import { gameSessionNeeds, sessionExpiry, sessionLowOn } from "@dicehall/core/contract/session.ts";
import { formatTimestamp, formatTokenAmount } from "@dicehall/core/game/format.ts";
import type { Hall } from "@/chain/hall.ts";
import { playedWithKey, rememberSessionGame, signerSentence } from "@/chain/session.ts";
import { sessionGrant, sessionOffer, type PlayerSession } from "@/chain/sessionHooks.ts";
import { localStore } from "@/data/localStore.ts";
import { NATIVE } from "@/chain/tokens.ts";
import { hallCall, PHASE_TEXT, useTx } from "@/chain/tx.ts";

/** The most wallet confirmations `turns` turns can take without a key: three rolls and a box each. */
export function confirmationsLeft(turns: number): number {
  return Math.max(0, turns) * 4;
}

/**
 * Who signs this player's moves, in words ("Moves signed by this browser's session key, until
 * 21:40"), with Revoke (which says what it costs first); a top-up in one confirmation when the key
 * runs low (offered between moves only, never while a roll is out); and, once the wallet signs
 * (revoked, ended), the way back: a new key for the rest of the game, in one confirmation.
 */
export function SessionStatus({
  hall,
  me,
  gameId,
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
  gameId: bigint;
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
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  const { signer, signingKey, onChain, keyBalance } = session;
  const native = hall.chain.nativeCurrency;
  const turns = Math.max(1, boxesLeft);

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
          // A key's roll fees come from those set aside for its session, not from the credit.
          credit: onChain.feeAllowance,
          rollFee,
          gasPrice,
        })
      : null;
  // A session for the turns left, at the prices of now, with a fresh key.
  const offer =
    rollFee === undefined || gasPrice === undefined
      ? null
      : sessionOffer({
          needs: gameSessionNeeds(turns, rollFee, gasPrice),
          token: NATIVE,
          bet: 0n,
          expiresAt: sessionExpiry({ nowSec, joinWindow: 0, moveTimeout, seats, boxes: turns }),
        });
  const openSession = async () => {
    if (!offer) return;
    const grant = await sessionGrant(hall, me, offer);
    if (!grant) return;
    const receipt = await tx.run(
      hallCall(hall.address, "openSession", [grant, grant.consent], offer.value),
    );
    // The new key plays this game: its end pays the player out.
    if (receipt) rememberSessionGame(hall.chainId, me, gameId);
  };
  const revoke = async () => {
    setConfirmRevoke(false);
    await tx.run(hallCall(hall.address, "revokeSession", []));
  };

  const until = signer.by === "key" ? formatTimestamp(signer.until) : "";
  const lowWords =
    lowOn === "gas"
      ? "The session key is running out of gas."
      : lowOn === "allowance"
        ? "The session key has nearly spent the roll fees it may spend."
        : null;
  // The way back to one confirmation: only where this browser can keep a key, and not over a live
  // key of another browser's (a new one here would end that one).
  const wayBack =
    !session.loading &&
    signer.by === "wallet" &&
    signer.why !== "elsewhere" &&
    !!localStore() &&
    offer !== null;
  const price = offer ? formatTokenAmount(offer.value, native, 6) : "";
  // "Again" after a revoke or an expiry; a player who chose to sign every move may switch too.
  const wayBackLabel =
    (signer.by === "wallet" && signer.why === "ended") || playedWithKey(hall.chainId, me, gameId)
      ? "Play with one confirmation again"
      : "Play with one confirmation";
  return (
    <div className="session-status" data-testid="session-status">
      <p className="muted small">
        {signerSentence(signer, until)}
        {signingKey && !confirmRevoke && (
          <>
            {" "}
            <button
              type="button"
              className="button button--quiet button--small"
              disabled={tx.busy}
              onClick={() => setConfirmRevoke(true)}
            >
              Revoke
            </button>
          </>
        )}
      </p>
      {signingKey && onChain && (
        <p className="muted small" data-testid="session-fees">
          Set aside in the hall for the key&apos;s roll fees and gas:{" "}
          {formatTokenAmount(onChain.feeAllowance, native, 6)} (not in your credit; the key tops its
          own small float up from it, and what is left comes back to your wallet when the game
          ends).
        </p>
      )}
      {signingKey && confirmRevoke && (
        <div className="claim" role="group" aria-label="Revoke the session key">
          <p data-testid="revoke-warning">
            Revoking stops this browser&apos;s session key at once. Every move you have left in this
            game then asks your wallet for a confirmation: up to {confirmationsLeft(boxesLeft)} more
            ({boxesLeft} {boxesLeft === 1 ? "turn" : "turns"}, up to three rolls and a box each),
            and each roll&apos;s fee is paid from your wallet. Your wallet asks once, now, to
            revoke. The roll fees set aside for the key and not spent go back to your credit in the
            hall, and the gas it holds can be sent back to your wallet. To play with one
            confirmation again later, a new key costs one more confirmation.
          </p>
          <button
            type="button"
            className="button button--warn button--small"
            disabled={tx.busy}
            onClick={() => void revoke()}
          >
            Revoke the key
          </button>{" "}
          <button
            type="button"
            className="button button--quiet button--small"
            onClick={() => setConfirmRevoke(false)}
          >
            Keep the key
          </button>
        </div>
      )}
      {lowWords && betweenMoves && (
        <p className="small">
          {lowWords} Top it up in one confirmation now, so the next moves need none.{" "}
          <button
            type="button"
            className="button button--small"
            disabled={tx.busy}
            onClick={() => void openSession()}
          >
            Top up the session key
          </button>
        </p>
      )}
      {wayBack && betweenMoves && (
        <p className="small" data-testid="way-back">
          A new session key for the {turns} {turns === 1 ? "turn" : "turns"} you have left: your
          wallet asks once ({price}: roll fees set aside for the key and gas for it; what is not
          spent comes back), then no more.{" "}
          <button
            type="button"
            className="button button--small"
            disabled={tx.busy}
            onClick={() => void openSession()}
          >
            {wayBackLabel}
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
