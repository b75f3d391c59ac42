import { useId } from "react";
import { formatTimestamp, formatTokenAmount, type TokenLike } from "@dicehall/core/game/format.ts";
import type { GameCost } from "@dicehall/core/contract/session.ts";
import type { SessionOffer } from "@/chain/sessionHooks.ts";

/**
 * What the wallet asks for when a game is opened or joined: with a session key, the bet and the
 * key's coin in one value (an ERC-20 bet beside the coin); without, the bet alone. The create and
 * join buttons and the summary all say this one amount.
 */
export function walletAmount(
  offer: SessionOffer | null,
  bet: bigint,
  token: TokenLike | undefined,
  native: TokenLike | undefined,
): string {
  const betText = formatTokenAmount(bet, token, 6);
  if (!offer) return betText;
  const coin = formatTokenAmount(offer.value, native, 6);
  const erc20 = !!token && token.symbol !== native?.symbol;
  return erc20 ? `${betText} + ${coin}` : coin;
}

/**
 * How a player will play a game they open or join: with one confirmation (a session key made in
 * this browser plays the moves) or signing every move in the wallet. With the first, what goes in
 * is shown before the wallet opens: the bet, the coin set aside in the hall for the key (its roll
 * fees and gas), the small float the key holds, and that what is unspent comes back.
 */
export function SessionChoice({
  oneConfirmation,
  onChange,
  offer,
  token,
  bet,
  native,
  available,
  verb,
  batched = false,
  approval = false,
  cost = null,
  games = 1,
}: {
  oneConfirmation: boolean;
  onChange: (oneConfirmation: boolean) => void;
  offer: SessionOffer | null;
  /** The bet's token. */
  token: TokenLike | undefined;
  bet: bigint | null;
  /** The chain's coin (fees and gas). */
  native: TokenLike | undefined;
  /** False where this browser keeps nothing (a key would be lost on reload): every move is signed. */
  available: boolean;
  /** "open the table" or "join". */
  verb: string;
  /** The wallet batches calls (EIP-5792): an ERC-20's approval goes with the call, one confirmation. */
  batched?: boolean;
  /** An ERC-20 bet whose allowance is short: the approval comes first. */
  approval?: boolean;
  /** A game's (a match's) roll fees and gas at today's prices (core gameCost); null until known. */
  cost?: GameCost | null;
  /** Games in the match (1: a single game), for the words. */
  games?: number;
}) {
  const id = useId();
  const coin = (v: bigint) => formatTokenAmount(v, native, 6);
  const erc20 = !!token && !!native && token.symbol !== native.symbol;
  // A bet in the coin can be set against the fees and gas; a token's price is not known here.
  // What the ask is sized by (a session's offer knows it): shown beside the worst case.
  const expected = oneConfirmation && available ? (offer?.needs.expected ?? null) : null;
  const betBelowCost = !!cost && !erc20 && bet !== null && bet > 0n && bet < cost.total;
  return (
    <div className="session-choice">
      <fieldset className="field">
        <legend>How you play</legend>
        <div className="segmented">
          <label className={`segmented__option${oneConfirmation ? " is-checked" : ""}`}>
            <input
              type="radio"
              name={`${id}-signing`}
              checked={oneConfirmation}
              disabled={!available}
              onChange={() => onChange(true)}
            />
            Play with one confirmation
          </label>
          <label className={`segmented__option${!oneConfirmation ? " is-checked" : ""}`}>
            <input
              type="radio"
              name={`${id}-signing`}
              checked={!oneConfirmation}
              onChange={() => onChange(false)}
            />
            Sign every move
          </label>
        </div>
        {!available && (
          <p className="hint">
            This browser keeps nothing between visits, so a session key would be lost on reload:
            your wallet signs every move.
          </p>
        )}
      </fieldset>
      {oneConfirmation && available && (
        <div className="summary" data-testid="session-summary" aria-live="off">
          {offer && bet !== null ? (
            <>
              <p>
                Your wallet asks{" "}
                {approval && !batched
                  ? `twice (approve, then ${verb})`
                  : approval
                    ? `once (the approval and ${verb} in one batch)`
                    : "once"}
                , for <strong>{walletAmount(offer, bet, token, native)}</strong>:
              </p>
              <ul className="session-choice__parts" aria-label="What goes in">
                <li>the bet: {formatTokenAmount(bet, token, 6)}</li>
                <li>
                  set aside in the hall for the session key&apos;s roll fees and gas:{" "}
                  {coin(offer.needs.feeDeposit)} (sized for about {offer.needs.rolls} rolls)
                </li>
                <li>
                  held by the key itself: {coin(offer.needs.keyGas)}, a couple of moves&apos; gas;
                  it tops itself up from what is set aside
                </li>
              </ul>
              <p className="hint" data-testid="session-comes-back">
                A key made in this browser (never sent anywhere) then plays your rolls and scores
                until {formatTimestamp(offer.expiresAt)}, with no wallet opening. It can move money
                only back to you. What comes back to your wallet when the{" "}
                {games > 1 ? "match" : "game"} ends: your winnings, and whatever of the{" "}
                {coin(offer.needs.feeDeposit)} set aside the key did not spend (the hall&apos;s
                keeper sends it about 30 seconds after the end, whether or not this page is open);
                the key sends back what it holds when this browser next opens the hall.
              </p>
            </>
          ) : (
            <p className="muted">Working out the roll fees and the gas…</p>
          )}
        </div>
      )}
      {!oneConfirmation && (
        <p className="hint">
          Your wallet asks for every roll and every score (about 30 to 50 times a game), each roll
          with its randomness fee.
        </p>
      )}
      {cost && (
        <p className="hint" data-testid="game-cost">
          At today&apos;s prices {games > 1 ? `a match of ${games} games'` : "a game's"} randomness
          fees and gas cost you{" "}
          {expected && (
            <>
              about <strong>{coin(expected.total)}</strong> (
              {expected.fees > 0n ? `${coin(expected.fees)} of fees, ` : ""}
              {coin(expected.gas)} of gas), and{" "}
            </>
          )}
          up to <strong>{coin(cost.total)}</strong> ({coin(cost.fees)} of fees, {coin(cost.gas)} of
          gas{expected ? " if every turn takes three rolls" : ""}) on top of the bet, win or lose:
          the hall&apos;s payout does not cover them.
        </p>
      )}
      {betBelowCost && (
        <p className="field__warning" role="note" data-testid="bet-below-cost">
          Your bet of {formatTokenAmount(bet!, token, 6)} is smaller than what{" "}
          {games > 1 ? "the match's" : "a game's"} fees and gas can cost ({coin(cost!.total)}): even
          a win may leave you down.
        </p>
      )}
    </div>
  );
}
