import { useDeferredValue } from "react";
import { Link, useSearchParams } from "react-router";
import type { Address } from "viem";
import { useConnection } from "wagmi";
import { RULE_SETS, isRuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { useHall } from "@/chain/hall.ts";
import { LEADERBOARD_PAGE, useLeaderboard, type BoardSort } from "@/data/indexer.ts";
import { useIndexer } from "@/data/indexerStatus.ts";
import { TIE_BREAK_TEXT, isLeaderboardSortKey } from "@dicehall/core/leaderboard/leaderboard.ts";
import { isSkillSortKey, type WireSkill } from "@dicehall/core/indexer/indexerWire.ts";
import { isPeriod, PERIODS, type Period } from "@dicehall/core/leaderboard/leaderboardPeriod.ts";
import { ReadError } from "@/ui/ReadError.tsx";
import { SourceNotice } from "@/ui/SourceNotice.tsx";
import { LeaderboardTable, LOADING_ROWS } from "./LeaderboardTable.tsx";
import { TokenOption } from "./TokenText.tsx";
import "./leaderboard.css";

/** The skill columns' place while the board is read from the index. */
const NO_SKILL: ReadonlyMap<string, WireSkill> = new Map();

/** Filters and sort live in the URL, so a view of the leaderboard can be shared. */
function useLeaderboardParams() {
  const [params, setParams] = useSearchParams();
  const ruleSetParam = params.get("rules");
  const ruleSet =
    ruleSetParam !== null && isRuleSetId(Number(ruleSetParam)) ? Number(ruleSetParam) : null;
  const token = (params.get("token") as Address | null) ?? null;
  const periodParam = params.get("period");
  const period: Period = isPeriod(periodParam) ? periodParam : "all";
  const sortParam = params.get("sort");
  const key =
    (isLeaderboardSortKey(sortParam) && (sortParam !== "net" || token)) || isSkillSortKey(sortParam)
      ? sortParam
      : "wins";
  const direction = params.get("dir") === "asc" ? "asc" : "desc";
  const sort: BoardSort = { key, direction, token };

  const update = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [k, v] of Object.entries(changes)) {
          if (v === null || v === "") next.delete(k);
          else next.set(k, v);
        }
        return next;
      },
      { replace: true },
    );
  return { ruleSet, token, period, sort, update };
}

export function LeaderboardPage() {
  const hall = useHall();
  const { address: me } = useConnection();
  const { ruleSet, token, period, sort, update } = useLeaderboardParams();
  const board = useLeaderboard({ ruleSet, token, period, sort, me });
  const indexer = useIndexer();
  // Where the rows come from, said before they arrive too (the index, unless it is off or failed),
  // so the line does not change length, and the page below it move, when they do.
  const fromIndex = board.data
    ? board.source === "indexer"
    : indexer.mode === "on" || (indexer.mode === "checking" && !board.notice);
  const tokens = board.data?.tokens ?? [];
  // The board's rows are drawn as a transition: React draws them in short slices and the phone
  // stays responsive while a page of rows (their names, faces and sums) comes in.
  const data = useDeferredValue(board.data);

  const setSort = (key: BoardSort["key"]) => {
    const direction =
      sort.key === key
        ? sort.direction === "desc"
          ? "asc"
          : "desc"
        : key === "player" || key === "lossPerGame"
          ? "asc"
          : "desc";
    update({
      sort: key === "wins" && direction === "desc" ? null : key,
      dir: direction === "desc" ? null : direction,
    });
  };

  let body;
  if (!hall) {
    body = <p>There is no hall on this network. Switch networks to see its leaderboard.</p>;
  } else if (board.error) {
    body = <ReadError what="The hall's history" error={board.error} onRetry={board.refetch} />;
  } else {
    // One table while the board is read and once it is in: placeholder rows of a row's height hold
    // its place (nothing below moves when the board arrives: Lighthouse's layout shift), and the
    // rows then take theirs, with the table, its header and its scroll hint left as they are.
    const loading = !data;
    const indexed = loading ? fromIndex : board.source === "indexer";
    // An empty board keeps the table and its rows' place: only the words change.
    const empty = !!data && data.total === 0;
    const filtered = ruleSet !== null || !!token || period !== "all";
    body = (
      <div
        aria-busy={loading || undefined}
        data-testid={loading ? "leaderboard-loading" : undefined}
      >
        <p className="leaderboard__summary" aria-live="polite">
          {loading ? (
            "Reading the hall's finished games…"
          ) : empty ? (
            `No finished games ${filtered ? "match these filters" : "yet"}.`
          ) : (
            <>
              {data.total} {data.total === 1 ? "player" : "players"}
              {data.me && (
                <>
                  {" · "}
                  <a href="#leaderboard-me">you are #{data.me.rank}</a>
                </>
              )}
            </>
          )}
        </p>
        <LeaderboardTable
          rows={data?.rows ?? []}
          loadingRows={loading ? LOADING_ROWS : 0}
          empty={
            !empty ? undefined : filtered ? (
              "Choose another rule set, token or period."
            ) : (
              <>
                <Link to="/games">Open a table</Link> and be the first on the board.
              </>
            )
          }
          mine={data?.me ?? null}
          sort={sort}
          onSort={setSort}
          me={me}
          tokens={loading ? [] : token ? [token.toLowerCase()] : tokens}
          netSortable={!!token}
          // The index's columns are there from the first paint when the index is expected.
          skill={loading ? (fromIndex ? NO_SKILL : undefined) : indexed ? data.skill : undefined}
          ratingOfAllGames={!!token || period !== "all"}
        />
        {data && indexed && (!!token || period !== "all") && (
          <p className="muted small" data-testid="leaderboard-rating-scope">
            The rating counts every game of a player in the rule set, whatever the token or period
            chosen; games, wins and the other columns count only the games these filters choose.
          </p>
        )}
        {data && board.hasMore && (
          <button type="button" className="button" onClick={board.showMore}>
            Show {Math.min(LEADERBOARD_PAGE, data.total - data.rows.length)} more
          </button>
        )}
        {data && !empty && <p className="muted small leaderboard__ties">{TIE_BREAK_TEXT}</p>}
      </div>
    );
  }

  return (
    <div className="page leaderboard">
      <div className="page__head">
        <div>
          <h1>Leaderboard</h1>
          <p className="muted">
            {fromIndex
              ? "Every finished game of the hall, from the hall's game index, which follows the chain's events."
              : "Every finished game of the hall, read from the chain's events (cached in this browser, so a return visit only reads the new blocks)."}
          </p>
        </div>
      </div>
      <form
        className="leaderboard__filters card"
        aria-label="Filters"
        onSubmit={(e) => e.preventDefault()}
      >
        <div className="field">
          <label htmlFor="lb-rules">Rule set</label>
          <select
            id="lb-rules"
            value={ruleSet ?? ""}
            onChange={(e) => update({ rules: e.target.value || null })}
          >
            <option value="">All rule sets</option>
            {RULE_SETS.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="lb-token">Token</label>
          <select
            id="lb-token"
            value={token?.toLowerCase() ?? ""}
            onChange={(e) =>
              update({
                token: e.target.value || null,
                // Net winnings only sort within one token.
                ...(sort.key === "net" && !e.target.value ? { sort: null, dir: null } : {}),
              })
            }
          >
            <option value="">All tokens</option>
            {(token && !tokens.includes(token.toLowerCase())
              ? [...tokens, token.toLowerCase()]
              : tokens
            ).map((t) => (
              <TokenOption key={t} token={t as Address} />
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="lb-period">Period</label>
          <select
            id="lb-period"
            value={period}
            onChange={(e) => update({ period: e.target.value === "all" ? null : e.target.value })}
          >
            {PERIODS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
      </form>
      <SourceNotice notice={board.notice} />
      {body}
      <p className="muted small leaderboard__notes">
        Ties count as a win for every tied player. A forfeited game counts as played and lost; best
        and average scores are over completed sheets. Yahtzees are 50s in the five-of-a-kind box
        plus every Yahtzee bonus. Net winnings are what the hall credited at the end minus the bet,
        per token (roll fees not included); choose a token to sort by them. From the game index: the
        rating is each player's skill rating (openskill's Weng-Lin model, mu − 3σ, from the order of
        finish of every game; a forfeit is a loss) in the chosen rule set, or their best rule set;
        points lost per game and best moves are the coach's analysis of their games under these
        filters. A match of several games for one stake counts as one game (won by the match's
        winners, its pot once); each of its games' scores counts in best and average, and each of
        its games is rated on its own.
      </p>
    </div>
  );
}
