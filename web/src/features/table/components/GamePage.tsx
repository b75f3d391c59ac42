import { Link, useParams, useSearchParams } from "react-router";
import { useIsPageTemplate } from "@/ui/pageTemplate.ts";
import { ruleSet, isRuleSetId } from "@dicehall/core/rules/ruleSets.ts";
import { parseGameId } from "@dicehall/core/game/gameId.ts";
import { describeError } from "@/chain/errors.ts";
import { useHallReach } from "@/chain/hall.ts";
import { useOnline } from "@/ui/pwa.ts";
import { formatTokenAmount } from "@dicehall/core/game/format.ts";
import { NATIVE } from "@/chain/tokens.ts";
import { Credits } from "@/ui/Credits.tsx";
import { NoSuchGame } from "@/ui/NoSuchGame.tsx";
import { refundOf } from "../hooks/resultWords.ts";
import { useGame } from "../hooks/useGame.ts";
import { LobbyPanel } from "./LobbyPanel.tsx";
import { MatchLine, MatchPanel } from "./MatchPanel.tsx";
import { PlayPanel } from "./PlayPanel.tsx";
import { ResultsPanel } from "./ResultsPanel.tsx";

/**
 * The table while it is read: in the place of the turn line that replaces it, and saying what is
 * coming (on a phone it is the first screen's largest text, so Lighthouse's LCP is its paint).
 */
function TableLoading({ gameId, cut }: { gameId: bigint | null; cut?: Cut }) {
  return (
    <section className="page">
      <h1>{gameId === null ? "Game" : `Game #${gameId}`}</h1>
      {cut ? (
        <p className="table__turn" role="status">
          {cut === "offline"
            ? "You are offline: the table is read from the chain once the network is back."
            : "The chain's node is not answering: the table is read once it does."}
        </p>
      ) : (
        <p className="table__turn loading">
          Reading the table from the chain: who sits at it, their score sheets and whose turn it is…
        </p>
      )}
    </section>
  );
}

/** Why the chain cannot be read now: the browser has no network, or the node does not answer. */
type Cut = "offline" | "no answer";

const clockTime = (ms: number) => new Date(ms).toLocaleTimeString("en-GB", { hour12: false });

/** Over a table read before the connection went: it is not live, and since when. */
function NotLive({ cut, readAt }: { cut: Cut; readAt: number }) {
  return (
    <p className="banner banner--warn table__not-live" role="status">
      {cut === "offline" ? "Offline" : "The chain's node is not answering"} — showing the table as
      last read at {clockTime(readAt)}.
    </p>
  );
}

/** /games/:id: the lobby while it fills, the table while it runs, the results at the end. */
export function GamePage() {
  const params = useParams();
  const template = useIsPageTemplate();
  const [search] = useSearchParams();
  const gameId = parseGameId(params.id);
  const game = useGame(gameId);
  const { hall, view, status, token, snapshot } = game;
  const online = useOnline();
  const reach = useHallReach();
  const cut: Cut | undefined = !online ? "offline" : !reach.live ? "no answer" : undefined;

  // The build's page for every game (games/_id.html) is the table being read, as below.
  if (template) return <TableLoading gameId={null} />;
  if (gameId === null) {
    return (
      <NoSuchGame
        text={params.id}
        back={{ to: "/games", label: "See the tables" }}
        reading="Game"
      />
    );
  }
  if (!hall) {
    return (
      <section className="page">
        <h1>Game #{String(gameId)}</h1>
        <p>There is no hall on this network. Switch networks above.</p>
      </section>
    );
  }
  if (cut && !view) return <TableLoading gameId={gameId} cut={cut} />;
  if (snapshot.error && !view) {
    const problem = describeError(snapshot.error);
    return (
      <section className="page">
        <h1>Game #{String(gameId)}</h1>
        <p role="alert">
          {problem.errorName === "UnknownGame"
            ? "There is no game with this number."
            : problem.message}
        </p>
        <p>
          <button type="button" className="button" onClick={() => void snapshot.refetch()}>
            Try again
          </button>{" "}
          <Link to="/games">See the tables</Link>
        </p>
      </section>
    );
  }
  if (!view) return <TableLoading gameId={gameId} />;
  if (game.notFound) {
    return (
      <section className="page">
        <h1>Game #{String(gameId)}</h1>
        <p>
          There is no game with this number (yet). <Link to="/games">See the tables</Link>.
        </p>
      </section>
    );
  }

  const rules = isRuleSetId(view.config.ruleSet) ? ruleSet(view.config.ruleSet) : null;
  const refund = refundOf(game.state, game.me);
  return (
    <div className="page game">
      <div className="page__head">
        <div>
          <p className="breadcrumbs">
            <Link to="/games">Tables</Link> / Game #{String(gameId)}
          </p>
          <h1>
            Game #{String(gameId)}
            {rules && (
              <>
                {" · "}
                <Link to={`/rules/${rules.key}`} className="game__rules">
                  {rules.name}
                </Link>
              </>
            )}
          </h1>
        </div>
        <p className="game__stakes">
          {formatTokenAmount(view.config.bet, token, 6)} a seat
          {view.games > 1 ? ` for a match of ${view.games} games` : ""} · pot{" "}
          {formatTokenAmount(view.pot, token, 6)}
        </p>
      </div>
      {cut && <NotLive cut={cut} readAt={Math.max(snapshot.dataUpdatedAt, reach.lastOkAt ?? 0)} />}
      {(status === "running" || status === "finished") && <MatchLine game={game} />}
      {status === "open" && (
        <LobbyPanel game={game} gameId={gameId} justCreated={search.get("created") === "1"} />
      )}
      {status === "finished" && <ResultsPanel game={game} gameId={gameId} />}
      {status === "cancelled" && (
        <section className="card">
          <h2>This table was cancelled</h2>
          <p>Every bet was refunded to its player as a credit in the hall.</p>
          {refund > 0n && (
            <p data-testid="your-refund">
              Your refund: <strong>{formatTokenAmount(refund, token, 6)}</strong>, added to your
              credit in the hall.
            </p>
          )}
          <Credits tokens={[view.config.token ?? NATIVE]} title="Ready to withdraw" />
          <Link to="/games">Back to the tables</Link>
        </section>
      )}
      {(status === "running" || status === "finished") && <PlayPanel game={game} gameId={gameId} />}
      {(status === "running" || status === "finished" || status === "cancelled") && (
        <MatchPanel game={game} gameId={gameId} />
      )}
    </div>
  );
}
