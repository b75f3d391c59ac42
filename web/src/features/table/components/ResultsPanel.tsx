import { Link } from "react-router";
import { formatTokenAmount, ordinal } from "@dicehall/core/game/format.ts";
import { sameAddress } from "@dicehall/core/game/gameState.ts";
import { rematchesOf } from "@dicehall/core/game/rematch.ts";
import { useHallGames } from "@/data/gameData.ts";
import { NATIVE } from "@/chain/tokens.ts";
import { AddressName } from "@/ui/Address.tsx";
import { Credits } from "@/ui/Credits.tsx";
import { creditTitle, potSentence } from "../hooks/resultWords.ts";
import type { useGame } from "../hooks/useGame.ts";

type Game = ReturnType<typeof useGame>;

/** The end: standings, winners and payout, then withdraw and rematch. */
export function ResultsPanel({ game, gameId }: { game: Game; gameId: bigint }) {
  const { state, view, me, token, words } = game;
  const { games } = useHallGames();
  const result = state?.result;
  if (!result || !view || !state) return null;
  // A lobby another player (or I) opened to play this table again; every player sees it here.
  const rematch = rematchesOf(state, games.values())[0] ?? null;
  // Where I stand with it: I opened it, I have a seat at it, or it waits for me.
  const myRematch = !rematch
    ? null
    : sameAddress(rematch.creator, me)
      ? "opened"
      : rematch.players.some((p) => sameAddress(p, me))
        ? "joined"
        : "waiting";
  const standings = result.players
    .map((player, i) => ({
      player,
      total: result.totals[i],
      won: result.winners.some((w) => sameAddress(w, player)),
      forfeited: state?.forfeited.some((f) => sameAddress(f, player)) ?? false,
    }))
    .sort((a, b) =>
      a.forfeited !== b.forfeited
        ? a.forfeited
          ? 1
          : -1
        : b.total > a.total
          ? 1
          : b.total < a.total
            ? -1
            : 0,
    );
  const iWon = result.winners.some((w) => sameAddress(w, me));
  const iPlayed = result.players.some((p) => sameAddress(p, me));
  // A match (several games for one stake) is won as a whole: its totals are its points.
  const match = state.match.length > 1;
  const headline = iWon
    ? result.winners.length > 1
      ? `You share the ${match ? "match" : "win"}!`
      : `You win${match ? " the match" : ""}!`
    : result.winners.length > 1
      ? `${result.winners.map(words.name).join(" and ")} share the ${match ? "match" : "win"}.`
      : `${words.name(result.winners[0])} wins${match ? " the match" : ""}.`;

  let place = 0;
  return (
    <section className="card results" aria-labelledby="results-title">
      <h2 id="results-title">{headline}</h2>
      <ol className="standings">
        {standings.map((row, i) => {
          if (i === 0 || row.total !== standings[i - 1].total) place = i + 1;
          return (
            <li key={row.player} className={`standings__row${row.won ? " is-winner" : ""}`}>
              <span className="standings__place">{row.forfeited ? "–" : ordinal(place)}</span>
              <span className="standings__name">
                <AddressName address={row.player} />
              </span>
              <span className="standings__total">
                {String(row.total)}
                <span className="sr-only"> points</span>
              </span>
              <span className="standings__note">
                {row.won
                  ? `won ${formatTokenAmount(result.payoutEach, token)}`
                  : row.forfeited
                    ? "forfeited"
                    : ""}
              </span>
            </li>
          );
        })}
      </ol>
      <p className="muted small" data-testid="pot-line">
        {potSentence(
          formatTokenAmount(view.pot, token, 6),
          result.houseFee > 0n ? formatTokenAmount(result.houseFee, token, 6) : null,
          result.winners.length,
          formatTokenAmount(result.payoutEach, token, 6),
        )}
      </p>
      {iPlayed && <Credits tokens={[view.config.token ?? NATIVE]} {...creditTitle(iWon)} />}
      {iPlayed && rematch && (
        <p className="results__rematch" data-testid="rematch-offer">
          {myRematch === "opened" ? (
            <>
              You opened the rematch, game #{String(rematch.gameId)}: the others are invited.{" "}
              <Link to={`/games/${rematch.gameId}`}>See who has joined</Link>
            </>
          ) : myRematch === "joined" ? (
            <>
              You have joined the rematch, game #{String(rematch.gameId)}.{" "}
              <Link to={`/games/${rematch.gameId}`}>Go to the table</Link>
            </>
          ) : (
            <>
              {rematch.creator ? <AddressName address={rematch.creator} /> : "A player"} wants a
              rematch: game #{String(rematch.gameId)}, same table.
            </>
          )}
        </p>
      )}
      <div className="results__actions">
        {iPlayed &&
          (rematch ? (
            myRematch === "waiting" && (
              <Link className="button button--primary" to={`/games/${rematch.gameId}`}>
                Join the rematch
              </Link>
            )
          ) : (
            <Link className="button button--primary" to={`/games/new?rematch=${gameId}`}>
              Rematch
            </Link>
          ))}
        {/* A match's games are replayed one by one: the link opens the list of them. */}
        <Link className="button" to={`/games/${gameId}/replay`}>
          {view.games > 1 ? "Watch the games' replays" : "Watch the replay"}
        </Link>
        <Link className="button button--quiet" to="/games">
          Back to the tables
        </Link>
      </div>
    </section>
  );
}
