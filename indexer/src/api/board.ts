import { createHash } from "node:crypto";
import type { Address } from "viem";
import { rowFromTotals, type LeaderboardRow } from "@dicehall/core/leaderboard/leaderboard.ts";
import type { parseLeaderboardQuery, WireSkill } from "@dicehall/core/indexer/indexerWire.ts";
import { ANALYSED_JOIN, type Sql } from "./analysis/analyser.ts";

/**
 * One page of the leaderboard, with its total and the viewer's rank, as ONE statement: the
 * database sums every player's games under the filters, joins their ratings and accuracy, sorts
 * them as core's sortLeaderboard does and returns only the page's rows (and the viewer's). The
 * API's thread then shapes ~50 rows instead of parsing every player's sums (8 000 rows at 2 000
 * players, which made a board computed afresh slow when the machine was busy).
 *
 * The order must be sortLeaderboard's to the last tie: test/indexer.test.ts compares every filter
 * and sort with core's fold of the chain's logs. Floating-point columns are IEEE divisions of the
 * same integers in SQL and in JavaScript, so they compare the same.
 */

export type LeaderboardQuery = ReturnType<typeof parseLeaderboardQuery>;

const SECONDS_PER_DAY = 86_400;

/** A period's first UTC day (read game by game from `since`) and that day's end (seconds). */
function firstDayOf(since: number): { firstDay: number; dayEnd: number } {
  const firstDay = Math.floor(since / SECONDS_PER_DAY);
  return { firstDay, dayEnd: (firstDay + 1) * SECONDS_PER_DAY };
}

/** A statement's parameters: `add` returns the placeholder ($1, $2, …) of the value. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A list of filters as a where clause, with their values in the statement's parameters. */
class Where {
  private readonly clauses: string[] = [];
  constructor(private readonly params: Params) {}
  /** `clause` with one `?` for `value`. */
  add(clause: string, value: unknown): this {
    this.clauses.push(clause.replace("?", this.params.add(value)));
    return this;
  }
  /** A clause without a value. */
  raw(clause: string): this {
    this.clauses.push(clause);
    return this;
  }
  toString(): string {
    return this.clauses.length ? `where ${this.clauses.join(" and ")}` : "";
  }
}

/**
 * The query's rule set and token filters on a table's `rule_set` and `token` columns (`prefix`
 * names the table's alias: "g."); `ruleSet` false where the table has no rule set.
 */
function filters(query: LeaderboardQuery, params: Params, { prefix = "", ruleSet = true } = {}) {
  const where = new Where(params);
  if (query.ruleSet !== null && ruleSet) where.add(`${prefix}rule_set = ?`, query.ruleSet);
  if (query.token !== null) where.add(`${prefix}token = ?`, query.token);
  return where;
}

const SUM_COLUMNS = `player, token, games, wins, forfeits, best, points, completed, yahtzees,
  staked, net, last_block`;

/**
 * The games of a block range or time window (`until`: seconds, exclusive) as sums rows: summed
 * per player and token, or one row a game and player (`perGame`: a window of at most a day, which
 * the board adds up with the day rows in one pass instead of two).
 */
function gamesSums(
  s: string,
  query: LeaderboardQuery,
  params: Params,
  until: number | null,
  perGame = false,
) {
  const where = filters(query, params);
  if (query.fromBlock !== null) where.add("finished_block >= ?", query.fromBlock.toString());
  if (query.toBlock !== null) where.add("finished_block <= ?", query.toBlock.toString());
  if (query.since !== null) where.add("finished_at >= ?", query.since);
  if (until !== null) where.add("finished_at < ?", until);
  if (perGame) {
    // A match's row carries the points and sheets of all its games (null: one game's, its total).
    return `select player, token, 1 as games, won as wins, forfeited as forfeits, total as best,
        coalesce(points, total, 0) as points,
        coalesce(completed, (total is not null)::int) as completed, yahtzees, staked, net,
        finished_block as last_block
      from ${s}.player_game ${where}`;
  }
  return `select player, token, count(*) as games, sum(won) as wins, sum(forfeited) as forfeits,
      max(total) as best, coalesce(sum(coalesce(points, total)), 0) as points,
      sum(coalesce(completed, (total is not null)::int)) as completed,
      sum(yahtzees) as yahtzees, sum(staked) as staked, sum(net) as net,
      max(finished_block) as last_block
    from ${s}.player_game ${where} group by player, token`;
}

/**
 * Every player's sums per token under the query's filters, as rows to add up per player and token
 * (a player and token may have several), read where they cost least: all time from the running
 * totals (one row each: `table` says so); a period from its whole days plus the games of the part
 * of its first day; a block range from its games.
 */
function sumsSql(s: string, query: LeaderboardQuery, params: Params) {
  if (query.fromBlock !== null || query.toBlock !== null) {
    return { text: gamesSums(s, query, params, null), table: false };
  }
  if (query.since === null) {
    const table = query.ruleSet === null ? "player_token_total" : "player_total";
    const where = filters(query, params, { ruleSet: table === "player_total" });
    return { text: `select ${SUM_COLUMNS} from ${s}.${table} ${where}`, table: true };
  }
  const { firstDay, dayEnd } = firstDayOf(query.since);
  const days = filters(query, params).add("day > ?", firstDay);
  const firstDayGames = gamesSums(s, query, params, dayEnd, true);
  return {
    text: `select ${SUM_COLUMNS} from ${s}.player_day ${days} union all ${firstDayGames}`,
    table: false,
  };
}

/**
 * The analysed games under the query's filters, as rows to sum per player, for at least the
 * players `only` selects (all when null; the running sums are read for those alone): games whose
 * finish is final from the analyser's running sums (accuracy_total; a period from accuracy_day's
 * whole days plus every game of its first day), the few others by joining their analyses to the
 * index's games (analysis/analyser.ts, "folded"); a block range joins them all.
 */
function accuracySql(
  s: string,
  query: LeaderboardQuery,
  params: Params,
  only: string | null,
): string {
  const SUMMED = `player, games, points_lost as lost, best_moves as best, decisions`;
  const COUNTED = `a.player, count(*) as games, sum(a.points_lost) as lost,
    sum(a.best_moves) as best, sum(a.decisions) as decisions`;
  const of = (where: Where) => (only === null ? where : where.raw(`player in (${only})`));
  /**
   * Analyses joined to the index's games (folded or not, or all when null), under `where`: a few
   * games (not yet final, or part of one day), so of every player. Restricted to the page's
   * players, Postgres would walk each one's analyses instead of the games (50 ms at 30 000 games).
   */
  const joined = (folded: boolean | null, where: Where) => {
    const fold =
      folded === null
        ? ""
        : `join ${s}.game_analysis ga on ga.game_id = a.game_id
             and ga.finished_hash = a.finished_hash and ${folded ? "" : "not "}ga.folded`;
    return `select ${COUNTED} from ${s}.player_analysis a ${ANALYSED_JOIN(s)} ${fold}
      ${where} group by a.player`;
  };
  const ofGames = () => {
    const where = filters(query, params, { prefix: "g." });
    if (query.since !== null) where.add("g.finished_at >= ?", query.since);
    return where;
  };
  if (query.fromBlock !== null || query.toBlock !== null) {
    const where = ofGames();
    if (query.fromBlock !== null) where.add("g.finished_block >= ?", query.fromBlock.toString());
    if (query.toBlock !== null) where.add("g.finished_block <= ?", query.toBlock.toString());
    return joined(null, where);
  }
  if (query.since === null) {
    return `select ${SUMMED} from ${s}.accuracy_total ${of(filters(query, params))}
      union all ${joined(false, ofGames())}`;
  }
  // After the first day: its folded games from the day sums, the others by the join. The part
  // of the first day: every game of it by the join, final or not (joining game_analysis to tell
  // them apart made Postgres scan all of it: 16 of 45 ms at 100 000 games).
  const { firstDay, dayEnd } = firstDayOf(query.since);
  const days = of(filters(query, params).add("day > ?", firstDay));
  return `select ${SUMMED} from ${s}.accuracy_day ${days}
    union all ${joined(null, ofGames().add("g.finished_at < ?", dayEnd))}
    union all ${joined(false, ofGames().add("g.finished_at >= ?", dayEnd))}`;
}

/**
 * The ratings of the players `only` selects (all when null) under the query: in its rule set, else
 * their best over the rule sets (two at the same best: the one with more games).
 */
function ratingsSql(
  s: string,
  query: LeaderboardQuery,
  params: Params,
  only: string | null,
): string {
  const where = new Where(params);
  if (query.ruleSet !== null) where.add("rule_set = ?", query.ruleSet);
  if (only !== null) where.raw(`player in (${only})`);
  if (query.ruleSet !== null) {
    return `select player, ordinal as rating, games as rated_games from ${s}.player_rating ${where}`;
  }
  if (only !== null) {
    return `select distinct on (player) player, ordinal as rating, games as rated_games
      from ${s}.player_rating ${where} order by player, ordinal desc, games desc`;
  }
  // Every player's (to sort by): the best alone, by a hash aggregate rather than a sort.
  return `select player, max(ordinal) as rating from ${s}.player_rating group by player`;
}

/**
 * sortLeaderboard's order in SQL: the sorted column (nulls last in either direction, as
 * compareNullable), then more wins, a higher win rate, fewer games, and the lower-case address in
 * code-point order. A skill column sorts the same way, its ties in the default board's order.
 */
function orderSql(query: LeaderboardQuery): string {
  const dir = query.direction === "asc" ? "asc" : "desc";
  const tail = `wins desc, win_rate desc, games asc, player collate "C" asc`;
  const columns: Record<string, string> = {
    wins: "wins",
    games: "games",
    winRate: "win_rate",
    yahtzees: "yahtzees",
    best: "best",
    average: "average",
    // The skill column sorted by (see boardPage).
    rating: "skill",
    lossPerGame: "skill",
    bestShare: "skill",
  };
  if (query.sort === "player") return `player collate "C" ${dir}`;
  if (query.sort === "net") {
    // Net winnings in the chosen token (sort_net); no token, no order of its own.
    return query.sortToken === null ? tail : `sort_net ${dir} nulls last, ${tail}`;
  }
  return `${columns[query.sort]} ${dir} nulls last, ${tail}`;
}

/**
 * Where the board statement runs: PGlite, or node-postgres with `prepare` (a named prepared
 * statement per statement text, so that Postgres parses and plans it once per connection rather
 * than at every board: 3 of the 11 ms a default board took at 2 000 players).
 */
export type BoardSql =
  | { prepare: false; sql: Sql }
  | {
      prepare: true;
      sql: {
        query<R>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
      };
    };

function run<R>(read: BoardSql, text: string, values: unknown[]): Promise<{ rows: R[] }> {
  if (!read.prepare) return read.sql.query<R>(text, values);
  const name = `board_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`;
  return read.sql.query<R>({ name, text, values });
}

/** A page of the board: its rows and their skill, the total, and the viewer's place. */
export interface BoardPage {
  rows: LeaderboardRow[];
  skill: WireSkill[];
  total: number;
  me: { rank: number; row: LeaderboardRow; skill: WireSkill } | null;
}

/** A row of the board statement (numeric sums as text; null columns on an empty page). */
interface BoardRow {
  total: number;
  rank: number | null;
  player: string;
  games: number;
  wins: number;
  forfeits: number;
  best: number | null;
  points: string;
  completed: number;
  yahtzees: number;
  last_block: string;
  tokens: string[];
  staked: string[];
  net: string[];
  rating: number | null;
  rated_games: number;
  analysed_games: number;
  loss_per_game: number | null;
  best_share: number | null;
}

/**
 * The page `query` asks for (offset, limit, the viewer), sorted, filtered and summed in SQL. Only
 * the sorted column is computed for every player: the skill columns of the page's rows, and their
 * bets and winnings per token, are read for those rows alone.
 */
export async function boardPage(
  read: BoardSql,
  s: string,
  query: LeaderboardQuery,
): Promise<BoardPage> {
  const params = new Params();
  const PAGE = "select player from page";
  const byRating = query.sort === "rating";
  const byAccuracy = query.sort === "lossPerGame" || query.sort === "bestShare";
  const accuracy = (only: string | null) => `
    select player, sum(games)::int as games, sum(lost)::float8 / sum(games) as loss_per_game,
      sum(best)::float8 / nullif(sum(decisions), 0) as best_share
    from (${accuracySql(s, query, params, only)}) x group by player`;
  // The net column's sort reads one token's sums, taken while grouping by player.
  const sortNet =
    query.sort === "net" && query.sortToken !== null
      ? `sum(net) filter (where token = ${params.add(query.sortToken)})`
      : "null::numeric";
  const sums = sumsSql(s, query, params);
  const ctes = [
    // Read twice (every player's totals, the page's tokens): a table as it is, else summed once.
    `pt as ${sums.table ? "not " : ""}materialized (${sums.text})`,
    `p as (
      select player, sum(games)::int as games, sum(wins)::int as wins,
        sum(forfeits)::int as forfeits, max(best)::int as best, sum(points) as points,
        sum(completed)::int as completed, sum(yahtzees)::int as yahtzees,
        max(last_block) as last_block, ${sortNet} as sort_net,
        sum(wins)::float8 / sum(games) as win_rate,
        sum(points)::float8 / nullif(sum(completed), 0) as average
      from pt group by player)`,
  ];
  // The skill column the board is sorted by, for every player: its CTE and column.
  const sortedSkill = byRating
    ? { cte: "every_rating", column: "rating" }
    : byAccuracy
      ? { cte: "acc", column: query.sort === "lossPerGame" ? "loss_per_game" : "best_share" }
      : null;
  if (byRating) ctes.push(`every_rating as (${ratingsSql(s, query, params, null)})`);
  if (byAccuracy) ctes.push(`acc as (${accuracy(null)})`);
  const skillFrom = sortedSkill
    ? `select p.*, k.${sortedSkill.column} as skill from p
        left join ${sortedSkill.cte} k on k.player = p.player`
    : "select p.*, null::float8 as skill from p";
  const from = params.add(query.offset);
  const to = params.add(query.offset + query.limit);
  const me = params.add(query.me);
  ctes.push(
    `ranked as (
      select p.*, row_number() over (order by ${orderSql(query)})::int as rank
      from (${skillFrom}) p)`,
    `page as (
      select * from ranked where (rank > ${from} and rank <= ${to}) or player = ${me})`,
    `tok as (
      select player, array_agg(token) as tokens, array_agg(staked::text) as staked,
        array_agg(net::text) as net
      from (
        select pt.player, pt.token, sum(pt.staked) as staked, sum(pt.net) as net
        from pt join page on page.player = pt.player group by pt.player, pt.token
      ) t group by player)`,
    `rt as (${ratingsSql(s, query, params, PAGE)})`,
  );
  if (!byAccuracy) ctes.push(`acc as (${accuracy(PAGE)})`);
  const { rows } = await run<BoardRow>(
    read,
    `with ${ctes.join(",\n")}
    select t.total, r.rank, r.player, r.games, r.wins, r.forfeits, r.best, r.points::text as points,
      r.completed, r.yahtzees, r.last_block::text as last_block, tok.tokens, tok.staked, tok.net,
      rt.rating, coalesce(rt.rated_games, 0)::int as rated_games,
      coalesce(acc.games, 0)::int as analysed_games, acc.loss_per_game, acc.best_share
    from (select count(*)::int as total from p) t
    left join page r on true
    left join tok on tok.player = r.player
    left join rt on rt.player = r.player
    left join acc on acc.player = r.player
    order by r.rank`,
    params.values,
  );
  const total = rows[0]?.total ?? 0;
  const ranked = rows.filter((r) => r.rank !== null);
  const rowOf = (r: BoardRow): LeaderboardRow =>
    rowFromTotals(
      r.player as Address,
      {
        games: r.games,
        wins: r.wins,
        forfeits: r.forfeits,
        best: r.best,
        points: Number(r.points),
        completed: r.completed,
        yahtzees: r.yahtzees,
        lastBlock: BigInt(r.last_block),
      },
      r.tokens.map((token, i) => ({ token, staked: BigInt(r.staked[i]), net: BigInt(r.net[i]) })),
    );
  const skillOf = (r: BoardRow): WireSkill => ({
    rating: r.rating,
    ratedGames: r.rated_games,
    analysedGames: r.analysed_games,
    lossPerGame: r.loss_per_game,
    bestShare: r.best_share,
  });
  const page = ranked.filter(
    (r) => r.rank! > query.offset && r.rank! <= query.offset + query.limit,
  );
  const mine = ranked.find((r) => r.player === query.me);
  return {
    rows: page.map(rowOf),
    skill: page.map(skillOf),
    total,
    me: mine ? { rank: mine.rank!, row: rowOf(mine), skill: skillOf(mine) } : null,
  };
}
