import { Link } from "react-router";
import type { Address } from "viem";
import { isRuleSetId, ruleSet } from "@dicehall/core/rules/ruleSets.ts";
import { formatTimestamp, formatTokenAmount, shortAddress } from "@dicehall/core/game/format.ts";
import { sameAddress } from "@dicehall/core/game/gameState.ts";
import { mySeat, RESULT_WORDS } from "@dicehall/core/leaderboard/history.ts";
import type { ListedGame } from "@/data/indexer.ts";
import { useBlockTimes } from "@/data/leaderboardData.ts";
import { useTokenInfo } from "@/chain/tokens.ts";
import { AddressName } from "@/ui/Address.tsx";

function Net({ token, value }: { token: Address; value: bigint }) {
  const info = useTokenInfo(token);
  const abs = value < 0n ? -value : value;
  const sign = value > 0n ? "+" : value < 0n ? "−" : "";
  return (
    <span className={value > 0n ? "amount--up" : value < 0n ? "amount--down" : undefined}>
      {sign}
      {formatTokenAmount(abs, info, 4)}
    </span>
  );
}

/** Finished games as a table: when, rule set, who played and scored what, my result. */
export function GameList({
  games,
  me,
  caption,
}: {
  /** With the finishing block's time when the game index sent it; else it is read here. */
  games: ListedGame[];
  me: Address | undefined;
  caption: string;
}) {
  const times = useBlockTimes(
    games.filter((g) => g.timestamp === undefined).map((g) => g.blockNumber),
  );
  const showMine = !!me && games.some((g) => mySeat(g, me));
  return (
    <div className="history-list">
      <table className="history-table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Game</th>
            <th scope="col">Finished</th>
            <th scope="col">Rule set</th>
            <th scope="col">Players and totals</th>
            {showMine && <th scope="col">You</th>}
            <th scope="col">
              <span className="sr-only">Links</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {games.map((game) => {
            const seat = mySeat(game, me);
            const time = game.timestamp ?? times.data?.get(game.blockNumber.toString());
            return (
              <tr key={game.gameId.toString()} className={seat ? "is-mine" : undefined}>
                <th scope="row">
                  <Link to={`/games/${game.gameId}/replay`}>#{game.gameId.toString()}</Link>
                </th>
                <td>{time ? formatTimestamp(time) : `block ${game.blockNumber}`}</td>
                <td>
                  {isRuleSetId(game.ruleSet) ? ruleSet(game.ruleSet).name : `#${game.ruleSet}`}
                </td>
                <td>
                  <ul className="history-players">
                    {game.players.map((player, i) => {
                      const won = game.winners.some((w) => sameAddress(w, player));
                      const out = game.forfeited.some((f) => sameAddress(f, player));
                      return (
                        <li key={player} className={won ? "is-winner" : undefined}>
                          <AddressName address={player} /> {game.totals[i].toString()}
                          {won && <span className="history-players__tag"> winner</span>}
                          {out && <span className="history-players__tag"> timed out</span>}
                        </li>
                      );
                    })}
                  </ul>
                  {game.match && (
                    // A match: its points over all games above, its standing game by game here.
                    <ol className="history-match muted small" data-testid="history-match">
                      {game.match.map((g) => (
                        <li key={g.game}>
                          <Link to={`/games/${game.gameId}/replay?game=${g.game}`}>
                            Game {g.game}
                          </Link>
                          :{" "}
                          {g.players
                            .map(
                              (p, i) =>
                                `${shortAddress(p)} ${g.totals[i]}${g.winners.some((w) => sameAddress(w, p)) ? " (won)" : ""}`,
                            )
                            .join(", ")}
                        </li>
                      ))}
                    </ol>
                  )}
                </td>
                {showMine && (
                  <td className="history-mine" data-label="You">
                    {seat ? (
                      <>
                        {RESULT_WORDS[seat.result]}
                        {seat.net !== null && (
                          <>
                            {" "}
                            <br />
                            <Net token={game.token} value={seat.net} />
                          </>
                        )}
                      </>
                    ) : (
                      "–"
                    )}
                  </td>
                )}
                <td className="history-links">
                  <Link
                    to={`/games/${game.gameId}/replay`}
                    aria-label={`Replay of game ${game.gameId}`}
                  >
                    Replay
                  </Link>
                  <Link
                    to={`/games/${game.gameId}/analysis`}
                    aria-label={`The coach's analysis of game ${game.gameId}`}
                  >
                    Analysis
                  </Link>
                  <Link to={`/games/${game.gameId}`} aria-label={`Table of game ${game.gameId}`}>
                    Table
                  </Link>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
