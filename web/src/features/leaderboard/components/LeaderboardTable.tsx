import { Fragment, useEffect, useRef, useState, type ReactNode, type RefObject } from "react";
import { Link } from "react-router";
import type { Address } from "viem";
import { sameAddress } from "@dicehall/core/game/gameState.ts";
import type { LeaderboardRow, LeaderboardSortKey } from "@dicehall/core/leaderboard/leaderboard.ts";
import type { SkillSortKey, WireSkill } from "@dicehall/core/indexer/indexerWire.ts";
import type { BoardSort } from "@/data/indexer.ts";
import { AddressName } from "@/ui/Address.tsx";
import { SignedAmount } from "@/ui/SignedAmount.tsx";

type SortKey = LeaderboardSortKey | SkillSortKey;

interface Column {
  key: SortKey;
  label: string;
  numeric: boolean;
}

const COLUMNS: Column[] = [
  { key: "player", label: "Player", numeric: false },
  { key: "games", label: "Games", numeric: true },
  { key: "wins", label: "Wins", numeric: true },
  { key: "winRate", label: "Win rate", numeric: true },
  { key: "best", label: "Best", numeric: true },
  { key: "average", label: "Average", numeric: true },
  { key: "yahtzees", label: "Yahtzees", numeric: true },
];

/** The index's skill columns: shown when the index answers (the chain alone has no analyses). */
const SKILL_COLUMNS: Column[] = [
  { key: "rating", label: "Rating", numeric: true },
  { key: "lossPerGame", label: "Points lost per game", numeric: true },
  { key: "bestShare", label: "Best moves", numeric: true },
];

function SortHeader({
  column,
  sort,
  onSort,
  sortable = true,
}: {
  column: Pick<Column, "key" | "label" | "numeric">;
  sort: BoardSort;
  onSort: (key: SortKey) => void;
  sortable?: boolean;
}) {
  const active = sort.key === column.key;
  const ariaSort = active ? (sort.direction === "asc" ? "ascending" : "descending") : undefined;
  return (
    <th scope="col" aria-sort={ariaSort} className={column.numeric ? "is-numeric" : undefined}>
      {sortable ? (
        <button type="button" className="sort-button" onClick={() => onSort(column.key)}>
          {column.label}
          <span aria-hidden="true" className="sort-button__arrow">
            {active ? (sort.direction === "asc" ? "▲" : "▼") : "↕"}
          </span>
        </button>
      ) : (
        column.label
      )}
    </th>
  );
}

function SkillCells({ player, skill }: { player: Address; skill: WireSkill | undefined }) {
  return (
    <>
      <td className="is-numeric">
        {skill?.rating == null ? (
          "–"
        ) : (
          <Link
            to={`/players/${player}`}
            title={`Rating after ${skill.ratedGames} rated games: the player's page`}
            data-testid="leaderboard-rating"
          >
            {skill.rating.toFixed(1)}
          </Link>
        )}
      </td>
      <td className="is-numeric">
        {skill?.lossPerGame == null ? "–" : skill.lossPerGame.toFixed(1)}
      </td>
      <td className="is-numeric">
        {skill?.bestShare == null ? "–" : `${Math.round(skill.bestShare * 100)}%`}
      </td>
    </>
  );
}

function Row({
  row,
  rank,
  me,
  tokens,
  skill,
}: {
  row: LeaderboardRow;
  rank: number;
  me: Address | undefined;
  tokens: string[];
  skill: ReadonlyMap<string, WireSkill> | undefined;
}) {
  const mine = sameAddress(row.player, me);
  return (
    <tr className={mine ? "is-me" : undefined} id={mine ? "leaderboard-me" : undefined}>
      <td className="is-numeric">{rank}</td>
      <th scope="row">
        <AddressName address={row.player} />
        {mine && <span className="sr-only"> (your row)</span>}
      </th>
      <td className="is-numeric">{row.games}</td>
      <td className="is-numeric">{row.wins}</td>
      <td className="is-numeric">{Math.round(row.winRate * 100)}%</td>
      <td className="is-numeric">{row.best ?? "–"}</td>
      <td className="is-numeric">{row.average === null ? "–" : row.average.toFixed(1)}</td>
      <td className="is-numeric">{row.yahtzees}</td>
      {skill && <SkillCells player={row.player} skill={skill.get(row.player.toLowerCase())} />}
      <td className="is-numeric">
        {tokens.filter((t) => row.net[t] !== undefined).length === 0 ? (
          "–"
        ) : (
          <ul className="net-list">
            {tokens
              .filter((t) => row.net[t] !== undefined)
              .map((t) => (
                <li key={t}>
                  <SignedAmount token={t as Address} value={row.net[t]} />
                </li>
              ))}
          </ul>
        )}
      </td>
    </tr>
  );
}

/**
 * True while the element's content is wider than its box (it scrolls sideways), false while it
 * fits: watched as the window, the fonts or the rows change. Null until measured (the prerendered
 * page, and the first render that takes it over).
 */
function useOverflowsX(ref: RefObject<HTMLElement | null>): boolean | null {
  const [overflows, setOverflows] = useState<boolean | null>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setOverflows(el.scrollWidth > el.clientWidth + 1);
    check();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(check);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}

/** Placeholder rows while the board is read: a phone's screen full, so nothing below it shows. */
export const LOADING_ROWS = 10;

/**
 * A row's place while the board is read: as high as a player's row (their face is 24 px). One cell
 * across the columns: few nodes for the page to lay out at first, and to drop when rows come.
 */
function LoadingRow({ cells, blank = false }: { cells: number; blank?: boolean }) {
  return (
    <tr
      className={`leaderboard__loading-row${blank ? " leaderboard__blank-row" : ""}`}
      aria-hidden="true"
      data-testid={blank ? undefined : "leaderboard-loading-row"}
    >
      <td colSpan={cells}>
        <span className="skeleton" />
      </td>
    </tr>
  );
}

/** The ranked rows, headers that sort, my row marked (and pinned below when it is further down). */
export function LeaderboardTable({
  rows,
  mine,
  sort,
  onSort,
  me,
  tokens,
  netSortable,
  skill,
  ratingOfAllGames = false,
  loadingRows = 0,
  empty,
}: {
  /** The rows shown, ranked from 1. */
  rows: LeaderboardRow[];
  /** The viewer's rank and row, wherever they are on the board. */
  mine: { rank: number; row: LeaderboardRow } | null;
  sort: BoardSort;
  onSort: (key: SortKey) => void;
  me: Address | undefined;
  /** Lower-case tokens whose net winnings the last column lists. */
  tokens: string[];
  netSortable: boolean;
  /** Ratings and accuracy by lower-case player, when the index has them: three more columns. */
  skill?: ReadonlyMap<string, WireSkill>;
  /**
   * The rating counts games the other columns do not (a token or period is chosen: the rating is
   * of every game in the rule set): its header says so.
   */
  ratingOfAllGames?: boolean;
  /** The board is being read: this many placeholder rows of a row's height instead of rows. */
  loadingRows?: number;
  /**
   * The board has no row (an empty hall, filters no game matches): said in the first row, the
   * others blank, all as high as the placeholders, so the page below does not move up when the
   * answer comes (Lighthouse's layout shift), and the words stay a line, not the page's largest
   * paint.
   */
  empty?: ReactNode;
}) {
  const columns = skill
    ? [
        ...COLUMNS,
        ...SKILL_COLUMNS.map((c) =>
          c.key === "rating" && ratingOfAllGames ? { ...c, label: "Rating (all games)" } : c,
        ),
      ]
    : COLUMNS;
  // On a desktop the table fits; where it cannot (a phone), it says that it scrolls sideways.
  const wrap = useRef<HTMLDivElement>(null);
  const scrolls = useOverflowsX(wrap);
  return (
    <>
      {/* Before the table is measured (the prerendered page), the hint is there on a narrow
          screen, where the table scrolls, so it does not push the table down once measured. */}
      {scrolls !== false && (
        <p
          className={`leaderboard__scroll-hint muted small${scrolls === null ? " leaderboard__scroll-hint--unmeasured" : ""}`}
          data-testid="leaderboard-scrolls"
        >
          {columns.length + 2} columns: scroll the table sideways for the rest →
        </p>
      )}
      <div
        ref={wrap}
        className={`leaderboard__wrap${scrolls ? " is-scrolling" : ""}`}
        // A table that scrolls can be scrolled from the keyboard too.
        tabIndex={scrolls ? 0 : undefined}
        role={scrolls ? "region" : undefined}
        aria-label={scrolls ? "Leaderboard (scrolls sideways)" : undefined}
      >
        <table className="leaderboard__table">
          <caption className="sr-only">
            Players ranked by{" "}
            {columns.find((c) => c.key === sort.key)?.label.toLowerCase() ?? "net winnings"},{" "}
            {sort.direction === "asc" ? "lowest" : "highest"} first. Column headers sort the table.
          </caption>
          <thead>
            <tr>
              <th scope="col" className="is-numeric">
                #
              </th>
              {columns.map((column) => (
                <SortHeader key={column.key} column={column} sort={sort} onSort={onSort} />
              ))}
              <SortHeader
                column={{ key: "net", label: "Net winnings", numeric: true }}
                sort={sort}
                onSort={onSort}
                sortable={netSortable}
              />
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: loadingRows }, (_, i) => (
              <LoadingRow key={i} cells={columns.length + 2} />
            ))}
            {empty !== undefined && (
              <>
                <tr className="leaderboard__loading-row leaderboard__empty-row">
                  <td colSpan={columns.length + 2}>{empty}</td>
                </tr>
                {Array.from({ length: LOADING_ROWS - 1 }, (_, i) => (
                  <LoadingRow key={i} cells={columns.length + 2} blank />
                ))}
              </>
            )}
            {rows.map((row, i) => (
              <Row key={row.player} row={row} rank={i + 1} me={me} tokens={tokens} skill={skill} />
            ))}
            {mine && mine.rank > rows.length && (
              <Fragment>
                <tr className="leaderboard__gap" aria-hidden="true">
                  <td colSpan={columns.length + 2}>⋯</td>
                </tr>
                <Row row={mine.row} rank={mine.rank} me={me} tokens={tokens} skill={skill} />
              </Fragment>
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
