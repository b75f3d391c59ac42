import { formatTokenAmount } from "@dicehall/core/game/format.ts";
import { ruleSet, isRuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { PHASE_TEXT } from "@/chain/tx.ts";
import { usePlayNow } from "../hooks/usePlayNow.ts";
import type { LobbyRow } from "../hooks/useLobbies.ts";

const STEP_TEXT = {
  idle: "",
  approve: "Approving the token",
  join: "Taking a seat",
  open: "Opening a table",
  move: "Moving to the other table",
};

/**
 * One press to a game: a seat at the oldest open table of the kind the player last played, or a
 * new one that the next player to press joins.
 */
export function PlayNow({ rows, nowMs }: { rows: readonly LobbyRow[]; nowMs: number }) {
  const flow = usePlayNow(rows, nowMs);
  const { prefs } = flow;
  if (!prefs) return null;
  const rules = isRuleSetId(prefs.ruleSet) ? ruleSet(prefs.ruleSet).name : "these rules";
  return (
    <div className="play-now">
      <button
        type="button"
        className="button button--primary button--large"
        disabled={!flow.ready || flow.busy}
        aria-describedby="play-now-what"
        onClick={() => void flow.play()}
      >
        Play now
      </button>
      <p className="muted small" id="play-now-what">
        A seat at a {prefs.seats}-player {rules} table for{" "}
        {formatTokenAmount(prefs.bet, prefs.tokenInfo, 6)} (or close to it), or a new one that the
        next player to press joins.
        {flow.offer && flow.nativeCoin && (
          <>
            {" "}
            Your wallet asks once ({flow.erc20 ? "after approving the token, " : ""}for{" "}
            {formatTokenAmount(flow.offer.value, flow.nativeCoin, 6)}
            {flow.erc20 ? ` and the ${prefs.tokenInfo?.symbol ?? "token"} bet` : ""}: the bet,{" "}
            {formatTokenAmount(flow.offer.needs.feeDeposit, flow.nativeCoin, 6)} of roll fees into
            your credit and {formatTokenAmount(flow.offer.needs.keyGas, flow.nativeCoin, 6)} of gas
            for this browser's session key, which then plays your moves); what is not spent comes
            back.
          </>
        )}
      </p>
      {flow.moved && (
        <p className="tx" role="status">
          Another player opened the same kind of table #{String(flow.moved.to)} a moment before your
          #{String(flow.moved.from)}, so you are moving there to play them: #
          {String(flow.moved.from)} is cancelled and its bet is back as your credit in the hall
          (withdraw it on the tables page).
        </p>
      )}
      {flow.busy && (
        <p className="tx tx--busy">
          {STEP_TEXT[flow.step]}: {PHASE_TEXT[flow.phase]}
        </p>
      )}
      {flow.error && (
        <p className="tx tx--error" role="alert">
          {flow.error.message}
        </p>
      )}
    </div>
  );
}
