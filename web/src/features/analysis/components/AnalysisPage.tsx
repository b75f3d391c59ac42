import { useMemo } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import type { Address } from "viem";
import { useConnection } from "wagmi";
import { coachRecordOf } from "@dicehall/core/game/coachRecord.ts";
import { parseGameId } from "@dicehall/core/game/gameId.ts";
import { shortAddress } from "@dicehall/core/game/format.ts";
import { foldGame, sameAddress } from "@dicehall/core/game/gameState.ts";
import { foldMatchGame, matchGameParam } from "@dicehall/core/game/match.ts";
import { ruleSet } from "@dicehall/core/rules/ruleSets.ts";
import type { HallLog } from "@dicehall/core/events/hallEvents.ts";
import { gameReadProblem, NoSuchGame } from "@/ui/NoSuchGame.tsx";
import { useHall } from "@/chain/hall.ts";
import { useGameLogs, useIndexedAnalysis } from "@/data/indexer.ts";
import { AddressName } from "@/ui/Address.tsx";
import { GameAnalysis } from "@/ui/coach/GameAnalysis.tsx";
import { SourceNotice } from "@/ui/SourceNotice.tsx";

/**
 * /games/:id/analysis: the coach's review of a finished game, from its events alone, so games
 * played before the coach existed are covered too. A game still in play shows nothing: a live
 * table with bets gets no help from the coach.
 */
export function AnalysisPage() {
  const params = useParams();
  const gameId = parseGameId(params.id);
  // A game of a match: /games/12/analysis?game=3 (each game of a match is a game of its own).
  const [search] = useSearchParams();
  const game = matchGameParam(search);
  const hall = useHall();
  const snapshot = useGameLogs(gameId);

  if (gameId === null) {
    return (
      <NoSuchGame
        text={params.id}
        back={{ to: "/history", label: "See the history" }}
        reading="Analysis"
      />
    );
  }
  const name = game ? `game ${game} of match #${gameId}` : `game #${gameId}`;
  const title = <h1>Analysis of {name}</h1>;
  let body;
  if (!hall) body = <p>There is no hall on this network. Switch networks above.</p>;
  else if (snapshot.error && !snapshot.data)
    body = <p role="alert">{gameReadProblem(snapshot.error)}</p>;
  else if (!snapshot.data) body = <p className="loading">Reading the game's events…</p>;
  else body = <Analysis gameId={gameId} logs={snapshot.data.logs} game={game} />;
  return (
    <div className="page analysis">
      <div className="page__head">
        <div>
          <p className="breadcrumbs">
            <Link to="/history">History</Link> / Game #{gameId.toString()}
            {game ? ` · game ${game}` : ""}
          </p>
          {title}
        </div>
        <Link className="button" to={`/games/${gameId}/replay${game ? `?game=${game}` : ""}`}>
          Replay
        </Link>
      </div>
      <SourceNotice notice={snapshot.notice} />
      {body}
    </div>
  );
}

function Analysis({
  gameId,
  logs,
  game,
}: {
  gameId: bigint;
  logs: HallLog[];
  game: number | null;
}) {
  const { address: me } = useConnection();
  // The game index's review when it has one (instant); else the coach runs in this browser.
  const indexed = useIndexedAnalysis(gameId, game);
  const state = useMemo(
    () => (game ? foldMatchGame(gameId, logs, game) : foldGame(gameId, logs)),
    [gameId, logs, game],
  );
  const record = useMemo(
    () =>
      coachRecordOf(state, (p: Address) =>
        sameAddress(p, me) ? `You (${shortAddress(p)})` : shortAddress(p),
      ),
    [state, me],
  );
  if (state.status !== "finished")
    return (
      <p>
        {state.status === "running"
          ? "This game is still being played. The coach reviews a game once it is over: a live table gets no help from it."
          : state.status === "unknown"
            ? "There is no game with this number (yet)."
            : "This game was never played: nothing to analyse."}
      </p>
    );
  if (!record && !game && state.match.length > 1)
    return (
      <p>
        A match of {state.match.length} games: each is analysed as a game of its own.{" "}
        {state.match.games.map((g) => (
          <span key={g.number}>
            <Link to={`/games/${gameId}/analysis?game=${g.number}`}>Game {g.number}</Link>{" "}
          </span>
        ))}
      </p>
    );
  if (!record) return <p>This game has no moves to analyse.</p>;
  if (indexed.data === undefined) return <p className="loading">Reading the game's analysis…</p>;
  const review = indexed.data?.review
    ? {
        ...indexed.data.review,
        players: indexed.data.review.players.map((p, i) => ({
          ...p,
          player: record.players[i]?.player ?? p.player,
        })),
      }
    : undefined;
  return (
    <>
      <p>
        {ruleSet(record.ruleSet).name}, {record.players.length}{" "}
        {record.players.length === 1 ? "player" : "players"}: every roll and box from the game's
        events, weighed by the coach.
      </p>
      <GameAnalysis
        game={record}
        cacheKey={`${gameId}${game ? `.${game}` : ""}:${logs.length}`}
        review={review}
        playerLabel={(i) => <AddressName address={state.players[i]} />}
      />
    </>
  );
}
