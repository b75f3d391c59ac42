import { useId, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import type { Address } from "viem";
import { useConnection } from "wagmi";
import { RULE_SETS, boxCount } from "@dicehall/core/rules/ruleSets.ts";
import {
  formatAmount,
  formatDuration,
  formatTokenAmount,
  parseAmount,
  shortAddress,
} from "@dicehall/core/game/format.ts";
import { useHall } from "@/chain/hall.ts";
import type { BetToken, Bounds, HallSettings } from "@/chain/settings.ts";
import { NATIVE, useTokenBalance } from "@/chain/tokens.ts";
import { PHASE_TEXT } from "@/chain/tx.ts";
import { saveTablePrefs } from "@/data/tablePrefs.ts";
import { useHeldLabel } from "@/ui/useHeldLabel.ts";
import { useCreateGame, type NewGame } from "../hooks/useCreateGame.ts";
import { useInvitees } from "../hooks/useInvitees.ts";
import { ensAvailable } from "@/chain/ens.ts";
import { useSessionOffer, useSessionPrices } from "@/chain/sessionHooks.ts";
import { gameCost } from "@dicehall/core/contract/session.ts";
import { useWalletBatches } from "@/chain/batch.ts";
import { localStore } from "@/data/localStore.ts";
import { SessionChoice, walletAmount } from "@/ui/SessionChoice.tsx";
import { useChainNow } from "@/ui/useNow.ts";

/** A rematch starts from the finished game's own config. */
export type Prefill = NewGame;

const JOIN_WINDOWS = [60, 300, 900, 1_800, 3_600, 3 * 3_600, 86_400, 3 * 86_400, 7 * 86_400];
const MOVE_TIMEOUTS = [60, 120, 300, 600, 1_800, 3_600, 6 * 3_600, 86_400, 7 * 86_400];
const MAX_INVITEES = 16;
/** A match is 1 to 10 games for one stake (the contract's bound). */
const MATCH_LENGTHS = Array.from({ length: 10 }, (_, i) => i + 1);

/** Presets inside the owner's bounds, plus the bounds themselves and the current value. */
function choices(presets: number[], bounds: Bounds, current: number): number[] {
  const inside = presets.filter((s) => s >= bounds.min && s <= bounds.max);
  return [...new Set([bounds.min, ...inside, bounds.max, current])]
    .filter((s) => s >= bounds.min && s <= bounds.max)
    .sort((a, b) => a - b);
}

function nearest(list: number[], target: number): number {
  return list.reduce(
    (best, s) => (Math.abs(s - target) < Math.abs(best - target) ? s : best),
    list[0],
  );
}

export function CreateGameForm({
  settings,
  prefill,
}: {
  settings: HallSettings;
  prefill: Prefill | null;
}) {
  const id = useId();
  const hall = useHall();
  const navigate = useNavigate();
  const { address } = useConnection();
  const tokens = settings.tokens.filter((t) => t.allowed);
  const initialToken =
    tokens.find((t) => prefill && t.address.toLowerCase() === prefill.token.toLowerCase()) ??
    tokens[0];

  const [tokenAddress, setTokenAddress] = useState<Address | undefined>(initialToken?.address);
  const token: BetToken | undefined = tokens.find((t) => t.address === tokenAddress);
  const [betText, setBetText] = useState(() =>
    initialToken
      ? formatAmount(prefill?.bet ?? initialToken.minBet, initialToken.decimals, 18).replace(
          /,/g,
          "",
        )
      : "",
  );
  const [seats, setSeats] = useState(prefill?.seats ?? 2);
  const [ruleSetId, setRuleSetId] = useState(prefill?.ruleSet ?? 0);
  const [games, setGames] = useState(prefill?.games ?? 1);
  const joinChoices = choices(JOIN_WINDOWS, settings.joinWindow, prefill?.joinWindow ?? 900);
  const moveChoices = choices(MOVE_TIMEOUTS, settings.moveTimeout, prefill?.moveTimeout ?? 300);
  const [joinWindow, setJoinWindow] = useState(nearest(joinChoices, prefill?.joinWindow ?? 900));
  const [moveTimeout, setMoveTimeout] = useState(nearest(moveChoices, prefill?.moveTimeout ?? 300));
  const [inviteText, setInviteText] = useState(prefill?.invitees.join("\n") ?? "");
  const [submitted, setSubmitted] = useState(false);
  // One confirmation a game (a session key plays the moves) unless the player chooses otherwise,
  // or this browser keeps nothing.
  const keyStorage = localStore() !== undefined;
  const [oneConfirmation, setOneConfirmation] = useState(keyStorage);
  const nowMs = useChainNow(10_000);
  const betInput = useRef<HTMLInputElement>(null);
  const inviteInput = useRef<HTMLTextAreaElement>(null);

  const balance = useTokenBalance(token?.address ?? NATIVE, address);
  const coinBalance = useTokenBalance(NATIVE, address);
  const invitees = useInvitees(inviteText, address);
  const bet = token ? parseAmount(betText, token.decimals) : null;
  const offer = useSessionOffer(
    oneConfirmation && keyStorage && token && bet !== null
      ? {
          token: token.address,
          bet,
          boxes: boxCount(ruleSetId),
          seats,
          joinWindow,
          moveTimeout,
          games,
        }
      : null,
    Math.floor(nowMs / 1000),
  );
  const nativeCoin = hall?.chain.nativeCurrency;
  // A game's (a match's) fees and gas at today's prices, beside the bet whichever way one plays.
  const prices = useSessionPrices(undefined);
  const cost =
    prices.gasPrice !== undefined && prices.rollFee !== undefined
      ? gameCost(boxCount(ruleSetId), prices.rollFee, prices.gasPrice, games)
      : null;
  const withOffer = oneConfirmation && keyStorage ? offer : null;
  const pays = bet !== null ? walletAmount(withOffer, bet, token, nativeCoin) : null;

  const problems: Record<string, string> = {};
  if (!token) problems.token = "The hall accepts no token right now.";
  if (token && bet === null) problems.bet = "Enter an amount, like 0.01.";
  else if (token && bet !== null && (bet < token.minBet || bet > token.maxBet)) {
    problems.bet = `Bets in ${token.symbol} go from ${formatTokenAmount(token.minBet, token, 6)} to ${formatTokenAmount(token.maxBet, token, 6)}.`;
  } else if (token && bet !== null && balance.data !== undefined && balance.data < bet) {
    problems.bet = `Your balance is ${formatTokenAmount(balance.data, token)}, less than the bet.`;
  } else if (offer && coinBalance.data !== undefined && nativeCoin) {
    const coinNeeded = offer.value;
    if (coinBalance.data < coinNeeded) {
      problems.bet = `You have ${formatTokenAmount(coinBalance.data, nativeCoin, 6)}; with the roll fees and the session key's gas this needs ${formatTokenAmount(coinNeeded, nativeCoin, 6)}. Choose "Sign every move" or a smaller bet.`;
    }
  }
  const inviteCount = invitees.lines.length;
  if (invitees.lines.some((l) => l.problem)) problems.invitees = "Fix the invitees marked below.";
  else if (inviteCount > MAX_INVITEES)
    problems.invitees = `Invite at most ${MAX_INVITEES} players.`;
  else if (inviteCount > 0 && inviteCount < seats - 1) {
    problems.invitees = `A private table needs at least ${seats - 1} invitees to fill its seats (or none for a public table).`;
  }

  const draft: NewGame | null =
    token && bet !== null && Object.keys(problems).length === 0
      ? {
          token: token.address,
          bet,
          seats,
          ruleSet: ruleSetId,
          joinWindow,
          moveTimeout,
          invitees: invitees.lines.map((l) => l.address!),
          games,
        }
      : null;

  const ctx = {
    amount: (v: bigint) => formatTokenAmount(v, token),
    name: (a: Address) => shortAddress(a),
    nativeSymbol: hall?.chain.nativeCurrency.symbol,
  };
  const batches = useWalletBatches();
  const flow = useCreateGame(draft, ctx, oneConfirmation && keyStorage ? offer : null);
  // The button says what the wallet will ask for.
  const forAmount = pays !== null && !problems.bet ? ` for ${pays}` : "";
  const [submitLabel, holdLabel] = useHeldLabel(
    flow.payment.needsApproval
      ? `Approve ${token?.symbol} and open the table${forAmount}`
      : `Open the table${forAmount}`,
  );

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    // The first field to fix, in the form's order, gets the focus and comes into view.
    const invalid = problems.bet
      ? betInput.current
      : problems.invitees
        ? inviteInput.current
        : null;
    if (invalid) {
      invalid.focus({ preventScroll: true });
      invalid.scrollIntoView?.({ block: "center" });
      return;
    }
    if (!draft || !address) return;
    // The amounts are shown before the wallet opens: not before they are known.
    if (oneConfirmation && keyStorage && !offer) return;
    const gameId = await holdLabel(() => flow.create());
    if (gameId === null) return;
    // "Play now" looks for this kind of table next time.
    if (hall) saveTablePrefs(hall.chainId, draft);
    navigate(`/games/${gameId}?created=1`);
  };

  if (tokens.length === 0) {
    return (
      <p>
        The hall doesn't accept any bets at the moment (no token is allowed yet). Try again later.
      </p>
    );
  }

  const pot = bet !== null ? bet * BigInt(seats) : null;
  const fee = pot !== null ? (pot * BigInt(settings.houseFeeBps)) / 10_000n : null;
  const show = (field: string) => (submitted || field === "invitees" ? problems[field] : undefined);
  const busyText = flow.busy
    ? flow.step === "approve"
      ? `Step 1 of 2, approving ${token?.symbol}: ${PHASE_TEXT[flow.payment.approveTx.phase]}`
      : PHASE_TEXT[flow.createTx.phase]
    : null;

  return (
    <form className="form card" onSubmit={submit} noValidate>
      <fieldset className="field">
        <legend>Bet in</legend>
        <div className="segmented">
          {tokens.map((t) => (
            <label
              key={t.address}
              className={`segmented__option${t.address === tokenAddress ? " is-checked" : ""}`}
            >
              <input
                type="radio"
                name="token"
                value={t.address}
                checked={t.address === tokenAddress}
                onChange={() => {
                  setTokenAddress(t.address);
                  setBetText(formatAmount(t.minBet, t.decimals, 18).replace(/,/g, ""));
                }}
              />
              {t.symbol}
              {t.native ? " (native)" : ""}
            </label>
          ))}
        </div>
        {token && (
          <p className="hint">
            Bets from {formatTokenAmount(token.minBet, token, 6)} to{" "}
            {formatTokenAmount(token.maxBet, token, 6)}.
            {balance.data !== undefined && <> You have {formatTokenAmount(balance.data, token)}.</>}
          </p>
        )}
      </fieldset>

      <div className="field">
        <label htmlFor={`${id}-bet`}>Bet per seat ({token?.symbol})</label>
        <input
          ref={betInput}
          id={`${id}-bet`}
          inputMode="decimal"
          autoComplete="off"
          value={betText}
          onChange={(e) => setBetText(e.target.value)}
          aria-invalid={!!show("bet")}
          aria-describedby={show("bet") ? `${id}-bet-error` : undefined}
        />
        {show("bet") && (
          <p id={`${id}-bet-error`} className="field__error">
            {show("bet")}
          </p>
        )}
      </div>

      <fieldset className="field">
        <legend>Seats</legend>
        <div className="segmented">
          {[2, 3, 4].map((n) => (
            <label key={n} className={`segmented__option${n === seats ? " is-checked" : ""}`}>
              <input
                type="radio"
                name="seats"
                value={n}
                checked={n === seats}
                onChange={() => setSeats(n)}
              />
              {n} players
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className="field">
        <legend>Rules</legend>
        <div className="rule-options">
          {RULE_SETS.map((r) => (
            <label key={r.id} className={`rule-option${r.id === ruleSetId ? " is-checked" : ""}`}>
              {/* Named by the rule set alone and described by its tagline, so a screen reader
                  does not read the tagline and the rules link as the radio's name. */}
              <input
                type="radio"
                name="ruleSet"
                value={r.id}
                checked={r.id === ruleSetId}
                onChange={() => setRuleSetId(r.id)}
                aria-labelledby={`rule-set-${r.id}-name`}
                aria-describedby={`rule-set-${r.id}-tagline`}
              />
              <span className="rule-option__name" id={`rule-set-${r.id}-name`}>
                {r.name}
              </span>
              <span className="rule-option__tagline" id={`rule-set-${r.id}-tagline`}>
                {r.tagline}
              </span>
              <Link to={`/rules/${r.key}`} target="_blank" rel="noopener" className="small">
                Rules of {r.name}
              </Link>
            </label>
          ))}
        </div>
      </fieldset>

      <div className="field">
        <label htmlFor={`${id}-games`}>Games in the match</label>
        <select
          id={`${id}-games`}
          value={games}
          onChange={(e) => setGames(Number(e.target.value))}
          aria-describedby={`${id}-games-hint`}
        >
          {MATCH_LENGTHS.map((n) => (
            <option key={n} value={n}>
              {n === 1 ? "1 game" : `${n} games`}
            </option>
          ))}
        </select>
        <p id={`${id}-games-hint`} className="hint">
          One bet for the whole match, played at this table one game after another. The pot goes to
          the most games won (a tied game counts for each), then to the most points; still level, it
          is split.
        </p>
      </div>

      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-join`}>Join window</label>
          <select
            id={`${id}-join`}
            value={joinWindow}
            onChange={(e) => setJoinWindow(Number(e.target.value))}
          >
            {joinChoices.map((s) => (
              <option key={s} value={s}>
                {formatDuration(s)}
              </option>
            ))}
          </select>
          <p className="hint">
            How long others can join. After it, anyone can cancel and all bets are refunded.
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-move`}>Time per move</label>
          <select
            id={`${id}-move`}
            value={moveTimeout}
            onChange={(e) => setMoveTimeout(Number(e.target.value))}
          >
            {moveChoices.map((s) => (
              <option key={s} value={s}>
                {formatDuration(s)}
              </option>
            ))}
          </select>
          <p className="hint">A player who takes longer can be timed out and forfeits.</p>
        </div>
      </div>

      <div className="field">
        <label htmlFor={`${id}-invitees`}>Invite players (optional)</label>
        <textarea
          ref={inviteInput}
          id={`${id}-invitees`}
          rows={3}
          value={inviteText}
          placeholder="0x… (one per line). Leave empty for a public table."
          onChange={(e) => setInviteText(e.target.value)}
          aria-describedby={`${id}-invitees-hint${show("invitees") ? ` ${id}-invitees-error` : ""}`}
          aria-invalid={!!show("invitees")}
        />
        <p id={`${id}-invitees-hint`} className="hint">
          With invitees the table is private: only they can join.{" "}
          {ensAvailable()
            ? "Addresses or ENS names, one per line."
            : "Addresses (0x…), one per line."}
        </p>
        {/* Above the list, so the sentence that says "below" is read before the marks. */}
        {show("invitees") && (
          <p className="field__error" id={`${id}-invitees-error`}>
            {show("invitees")}
          </p>
        )}
        {invitees.lines.length > 0 && (
          <ul className="invitees">
            {invitees.lines.map((line, i) => (
              <li key={`${line.text}-${i}`} className={line.problem ? "is-bad" : "is-ok"}>
                <code>{line.text}</code>
                {line.address && line.address.toLowerCase() !== line.text.toLowerCase() && (
                  <span className="muted"> → {shortAddress(line.address)}</span>
                )}
                {line.problem ? (
                  <span className="field__error"> {line.problem}</span>
                ) : (
                  <span aria-label="valid"> ✓</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>

      <SessionChoice
        oneConfirmation={oneConfirmation && keyStorage}
        onChange={setOneConfirmation}
        offer={offer}
        token={token}
        bet={bet}
        native={nativeCoin}
        available={keyStorage}
        approval={flow.payment.needsApproval}
        batched={batches}
        verb="open the table"
        cost={cost}
        games={games}
      />

      {/* No amounts while the bet is one the hall would refuse. */}
      {token && bet !== null && pot !== null && !problems.bet && (
        <div className="summary" aria-live="off">
          <p data-testid="create-pays">
            You pay <strong>{pays}</strong> now
            {withOffer && <> (the bet of {formatTokenAmount(bet, token, 6)}, fees and gas)</>}
            {games > 1 ? ` for the whole match of ${games} games` : ""} and hold seat 1. Pot when
            full: {formatTokenAmount(pot, token, 6)}
            {settings.houseFeeBps > 0 && fee !== null && (
              <>
                , house fee {settings.houseFeeBps / 100}% ({formatTokenAmount(fee, token, 6)})
              </>
            )}
            .
          </p>
          {flow.payment.needsApproval && (
            <p className="hint">
              {token.symbol} is a token: your wallet asks twice, first to let the hall take the bet,
              then to open the table.
            </p>
          )}
        </div>
      )}

      {!address ? (
        <p className="muted">Connect a wallet (top right) to open a table.</p>
      ) : (
        <button type="submit" className="button button--primary button--large" disabled={flow.busy}>
          {submitLabel}
        </button>
      )}
      {busyText && <p className="tx tx--busy">{busyText}</p>}
      {flow.error && (
        <p className="tx tx--error" role="alert">
          {flow.error.message}
        </p>
      )}
    </form>
  );
}
