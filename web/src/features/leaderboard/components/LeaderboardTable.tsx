import { Fragment } from "react";
import type { Address } from "viem";
import { sameAddress } from "@dicehall/core/game/gameState.ts";
import type {
  LeaderboardRow,
  LeaderboardSort,
  LeaderboardSortKey,
} from "@dicehall/core/leaderboard/leaderboard.ts";
import { AddressName } from "@/ui/Address.tsx";
import { SignedAmount } from "./TokenText.tsx";

interface Column {
  key: LeaderboardSortKey;
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

function SortHeader({
  column,
  sort,
  onSort,
  sortable = true,
}: {
  column: Pick<Column, "key" | "label" | "numeric">;
  sort: LeaderboardSort;
  onSort: (key: LeaderboardSortKey) => void;
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

function Row({
  row,
  rank,
  me,
  tokens,
}: {
  row: LeaderboardRow;
  rank: number;
  me: Address | undefined;
  tokens: string[];
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

/** The ranked rows, headers that sort, my row marked (and pinned below when it is further down). */
export function LeaderboardTable({
  rows,
  mine,
  sort,
  onSort,
  me,
  tokens,
  netSortable,
}: {
  /** The rows shown, ranked from 1. */
  rows: LeaderboardRow[];
  /** The viewer's rank and row, wherever they are on the board. */
  mine: { rank: number; row: LeaderboardRow } | null;
  sort: LeaderboardSort;
  onSort: (key: LeaderboardSortKey) => void;
  me: Address | undefined;
  /** Lower-case tokens whose net winnings the last column lists. */
  tokens: string[];
  netSortable: boolean;
}) {
  return (
    <div className="leaderboard__wrap">
      <table className="leaderboard__table">
        <caption className="sr-only">
          Players ranked by{" "}
          {COLUMNS.find((c) => c.key === sort.key)?.label.toLowerCase() ?? "net winnings"},{" "}
          {sort.direction === "asc" ? "lowest" : "highest"} first. Column headers sort the table.
        </caption>
        <thead>
          <tr>
            <th scope="col" className="is-numeric">
              #
            </th>
            {COLUMNS.map((column) => (
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
          {rows.map((row, i) => (
            <Row key={row.player} row={row} rank={i + 1} me={me} tokens={tokens} />
          ))}
          {mine && mine.rank > rows.length && (
            <Fragment>
              <tr className="leaderboard__gap" aria-hidden="true">
                <td colSpan={COLUMNS.length + 2}>⋯</td>
              </tr>
              <Row row={mine.row} rank={mine.rank} me={me} tokens={tokens} />
            </Fragment>
          )}
        </tbody>
      </table>
    </div>
  );
}
