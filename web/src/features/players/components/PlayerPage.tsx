import { lazy, Suspense, useDeferredValue } from "react";
import { Link, useParams } from "react-router";
import { useIsPageTemplate } from "@/ui/pageTemplate.ts";
import { getAddress, isAddress, zeroAddress, type Address } from "viem";
import type { WireAccuracyPoint, WirePlayer } from "@dicehall/core/indexer/indexerWire.ts";
import { formatTimestamp } from "@dicehall/core/game/format.ts";
import { parseMatchGameKey } from "@dicehall/core/game/match.ts";
import { isRuleSetId, ruleSet } from "@dicehall/core/rules/ruleSets.ts";
import { useHall } from "@/chain/hall.ts";
import { useFinishedGames, usePlayer } from "@/data/indexer.ts";
import { AddressName } from "@/ui/Address.tsx";
import { Identicon } from "@/ui/Identicon.tsx";
import { ReadError } from "@/ui/ReadError.tsx";
import { SignedAmount } from "@/ui/SignedAmount.tsx";
import "@/ui/coach/coach.css";
import "./players.css";

// The chart and the coach's words load only for a player who has something to chart or a
// mistake to tell: the coach's code sets up its tables as it loads, a long task on a phone that a
// player with no games never needs (bench:lighthouse, "no games: player").
const LineChart = lazy(() => import("./LineChart.tsx").then((m) => ({ default: m.LineChart })));
const Mistakes = lazy(() => import("./Mistakes.tsx").then((m) => ({ default: m.Mistakes })));

/** The chart's place while its code loads: the same box as the page's loading chart. */
function ChartPlace(props: Parameters<typeof LineChart>[0]) {
  return (
    <Suspense
      fallback={
        <div className="player-chart player-chart--loading" aria-hidden="true">
          <span className="skeleton" />
        </div>
      }
    >
      <LineChart {...props} />
    </Suspense>
  );
}

const ruleSetName = (id: number) => (isRuleSetId(id) ? ruleSet(id).name : `Rule set ${id}`);
const percent = (share: number) => `${Math.round(share * 100)}%`;

/**
 * /players/:address: one player's skill across games, from the game index: per rule set the
 * rating and its history, games and wins, net result per token, the coach's accuracy game by game,
 * the recent games and the biggest mistakes, each linking to its replay and analysis. Needs no
 * wallet.
 */
export function PlayerPage() {
  const params = useParams();
  const raw = params.address ?? "";
  const player = isAddress(raw) ? getAddress(raw) : null;
  const template = useIsPageTemplate();
  if (template) return <PlayerTemplate />;
  if (!player) {
    return (
      <div className="page player">
        <h1>No such player</h1>
        <p>
          “{raw}” is not an address. <Link to="/leaderboard">See the leaderboard</Link>.
        </p>
      </div>
    );
  }
  return <Player player={player} />;
}

/**
 * Every player's page as the build draws it (players/_address.html), until the app draws the
 * player's own: the same head, its avatar's and address's places kept, and the record loading.
 */
function PlayerTemplate() {
  return (
    <div className="page player">
      <p className="breadcrumbs">
        <Link to="/leaderboard">Leaderboard</Link> / Player
      </p>
      <div className="page__head player__head">
        <span className="identicon" aria-hidden="true" style={{ width: 48, height: 48 }} />
        <div className="player__name">
          <h1>Player</h1>
          {/* An address's length, unseen: the line wraps as the player's own will. */}
          <p className="muted small" aria-hidden="true" style={{ visibility: "hidden" }}>
            <code>{zeroAddress}</code>
          </p>
        </div>
      </div>
      <LoadingSkill />
    </div>
  );
}

function Player({ player }: { player: Address }) {
  const hall = useHall();
  const page = usePlayer(player);
  // The record, chart and tables are drawn as a transition: in short slices, the phone responsive.
  const data = useDeferredValue(page.data);

  let body;
  if (!hall) body = <p>There is no hall on this network. Switch networks above.</p>;
  else if (page.indexer.mode === "off" || page.indexer.mode === "failed")
    body = (
      <p>
        Ratings and accuracy come from the hall's game index, which this app cannot reach now; the
        games below are read from the chain.
      </p>
    );
  else if (page.error && !data)
    body = <ReadError what="This player's page" error={page.error} onRetry={page.refetch} />;
  else if (!data) body = <LoadingSkill />;
  else body = <Skill data={data} />;
  const loading = body.type === LoadingSkill;

  return (
    <div className="page player">
      {/* The breadcrumb leads the page, above the avatar, on a phone as on a desktop. */}
      <p className="breadcrumbs">
        <Link to="/leaderboard">Leaderboard</Link> / Player
      </p>
      <div className="page__head player__head">
        <Identicon address={player} size={48} />
        <div className="player__name">
          <h1>
            <AddressName address={player} />
          </h1>
          <p className="muted small">
            <code>{player}</code>
          </p>
        </div>
      </div>
      {body}
      {/* After the record: shown before it, the record's arrival would push it down the screen. */}
      {!loading && <RecentGames player={player} />}
    </div>
  );
}

/** The record's facts, by their labels (the net result apart: a list, on a line of its own). */
const FACTS = ["Games", "Won", "Forfeited"];

/**
 * The page's place while it is read: the record's facts, the rating chart's box and its table's
 * header, each as high as what replaces it, so nothing on a phone's first screen moves when the
 * answer arrives (Lighthouse's layout shift). The chart comes before its table, whose rows (one a
 * rule set) only push down what is below the screen.
 */
function LoadingSkill() {
  return (
    <div role="status" aria-busy="true" data-testid="player-loading">
      <p className="sr-only">Reading this player's games…</p>
      <section aria-hidden="true">
        <h2>Record</h2>
        <dl className="player__facts">
          {FACTS.map((fact) => (
            <div key={fact}>
              <dt>{fact}</dt>
              <dd className="muted">…</dd>
            </div>
          ))}
          <div>
            <dt>Net result</dt>
            <dd>
              <ul className="net-list">
                <li className="muted">
                  <span className="skeleton player__net-skeleton" />
                </li>
              </ul>
            </dd>
          </div>
        </dl>
        <p className="muted small">{NET_NOTE}</p>
      </section>
      <section aria-hidden="true">
        <h2>Rating</h2>
        <div className="player-chart player-chart--loading" data-testid="player-chart-loading">
          <span className="skeleton" />
        </div>
        <table className="coach-table">
          <thead>
            <tr>
              {RATING_COLUMNS.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              {RATING_COLUMNS.map((c) => (
                <td key={c}>
                  <span className="skeleton" />
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </section>
    </div>
  );
}

const NET_NOTE =
  "Net result is what the hall paid out at the end of each game minus the bet, per token: the randomness fees of rolls and the gas of every transaction are not in it, so a player's wallet is down by those on top.";

const RATING_COLUMNS = ["Rule set", "Rating", "Rated games", "Skill (μ ± σ)"];

function Skill({ data }: { data: WirePlayer }) {
  const tokens = Object.keys(data.net).sort();
  return (
    <>
      <section aria-labelledby="player-record">
        <h2 id="player-record">Record</h2>
        <dl className="player__facts" data-testid="player-record">
          <div>
            <dt>Games</dt>
            <dd data-testid="player-games">{data.games}</dd>
          </div>
          <div>
            <dt>Won</dt>
            <dd data-testid="player-wins">{data.wins}</dd>
          </div>
          <div>
            <dt>Forfeited</dt>
            <dd>{data.forfeits}</dd>
          </div>
          <div>
            <dt>Net result</dt>
            <dd>
              {tokens.length === 0 ? (
                "–"
              ) : (
                <ul className="net-list">
                  {tokens.map((t) => (
                    <li key={t}>
                      <SignedAmount token={t as Address} value={BigInt(data.net[t])} />
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </div>
        </dl>
        {tokens.length > 0 && (
          <p className="muted small" data-testid="player-net-note">
            {NET_NOTE}
          </p>
        )}
      </section>
      <Ratings data={data} />
      <Accuracy points={data.accuracy} />
      {data.mistakes.length > 0 && (
        <Suspense fallback={null}>
          <Mistakes points={data.mistakes} />
        </Suspense>
      )}
      <Matches matches={data.matches ?? []} />
    </>
  );
}

/** A rating point's game: `12`, or game 3 of match 12 as `12.3` (each is rated on its own). */
function replayOf(key: string): string {
  const parsed = parseMatchGameKey(key);
  if (!parsed) return `/games/${key}/replay`;
  return `/games/${parsed.gameId}/replay${parsed.game ? `?game=${parsed.game}` : ""}`;
}

/** Their matches of several games: the result, and each game's total, replay and analysis. */
function Matches({ matches }: { matches: NonNullable<WirePlayer["matches"]> }) {
  if (matches.length === 0) return null;
  return (
    <section aria-labelledby="player-matches">
      <h2 id="player-matches">Matches</h2>
      <ul className="player__matches" data-testid="player-matches">
        {matches.map((m) => (
          <li key={m.gameId}>
            <Link to={`/games/${m.gameId}`}>Match #{m.gameId}</Link> ({ruleSetName(m.ruleSet)},{" "}
            {m.games} games): {m.won ? "won" : "lost"} · games won{" "}
            {m.results.filter((r) => r.won).length} of {m.results.length}
            <ol className="player__match-games">
              {m.results.map((r) => (
                <li key={r.game}>
                  Game {r.game}: {r.total} points{r.won ? ", won" : ""} ·{" "}
                  <Link to={`/games/${m.gameId}/replay?game=${r.game}`}>replay</Link> ·{" "}
                  <Link to={`/games/${m.gameId}/analysis?game=${r.game}`}>analysis</Link>
                </li>
              ))}
            </ol>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Ratings({ data }: { data: WirePlayer }) {
  return (
    <section aria-labelledby="player-ratings">
      <h2 id="player-ratings">Rating</h2>
      {data.ratings.length === 0 ? (
        <p>No rated games yet.</p>
      ) : (
        <>
          <ChartPlace
            title="Rating after each rated game, per rule set"
            testId="player-rating-chart"
            series={data.ratings.map((r) => ({
              label: ruleSetName(r.ruleSet),
              values: r.history.map((h) => h.ordinal),
            }))}
            xLabel="Rated games of the rule set along the bottom, the rating (μ − 3σ) up the side."
          />
          <table className="coach-table" data-testid="player-ratings">
            <caption className="sr-only">Rating per rule set</caption>
            <thead>
              <tr>
                {RATING_COLUMNS.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.ratings.map((r) => (
                <tr key={r.ruleSet}>
                  <th scope="row">{ruleSetName(r.ruleSet)}</th>
                  <td>{r.ordinal.toFixed(1)}</td>
                  <td>{r.games}</td>
                  <td>
                    {r.mu.toFixed(1)} ± {r.sigma.toFixed(1)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <details className="coach-decisions">
            <summary>The chart's numbers</summary>
            {data.ratings.map((r) => (
              <table className="coach-table" key={r.ruleSet}>
                <caption>{ruleSetName(r.ruleSet)}: rating after each game</caption>
                <thead>
                  <tr>
                    <th scope="col">Game</th>
                    <th scope="col">Finished</th>
                    <th scope="col">Rating</th>
                  </tr>
                </thead>
                <tbody>
                  {r.history.map((h) => (
                    <tr key={h.gameId}>
                      <td>
                        <Link to={replayOf(h.gameId)}>#{h.gameId}</Link>
                      </td>
                      <td>{formatTimestamp(h.timestamp)}</td>
                      <td>{h.ordinal.toFixed(1)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ))}
          </details>
        </>
      )}
    </section>
  );
}

function Accuracy({ points }: { points: WireAccuracyPoint[] }) {
  if (points.length === 0) {
    return (
      <section aria-labelledby="player-accuracy">
        <h2 id="player-accuracy">Accuracy</h2>
        <p>The coach has not analysed any of this player's games yet.</p>
      </section>
    );
  }
  const lost = points.reduce((s, p) => s + p.pointsLost, 0);
  const best = points.reduce((s, p) => s + p.bestMoves, 0);
  const decisions = points.reduce((s, p) => s + p.decisions, 0);
  return (
    <section aria-labelledby="player-accuracy">
      <h2 id="player-accuracy">Accuracy</h2>
      <p data-testid="player-accuracy-summary">
        Over {points.length} analysed {points.length === 1 ? "game" : "games"}: {""}
        {(lost / points.length).toFixed(1)} expected points lost per game against the coach's best
        play, and {percent(decisions ? best / decisions : 1)} of decisions the coach's own.
      </p>
      <ChartPlace
        title="Expected points lost in each analysed game"
        testId="player-accuracy-chart"
        series={[{ label: "Points lost", values: points.map((p) => p.pointsLost) }]}
        xLabel="Analysed games along the bottom (oldest first), expected points lost up the side: lower is better."
      />
      <table className="coach-table" data-testid="player-accuracy">
        <caption>The chart's numbers: each analysed game</caption>
        <thead>
          <tr>
            <th scope="col">Game</th>
            <th scope="col">Rule set</th>
            <th scope="col">Finished</th>
            <th scope="col">Points lost</th>
            <th scope="col">Best moves</th>
          </tr>
        </thead>
        <tbody>
          {[...points].reverse().map((p) => (
            <tr key={p.gameId}>
              <td>
                <Link to={`/games/${p.gameId}/analysis`}>#{p.gameId}</Link>
              </td>
              <td>{ruleSetName(p.ruleSet)}</td>
              <td>{formatTimestamp(p.timestamp)}</td>
              <td>{p.pointsLost.toFixed(1)}</td>
              <td>
                {percent(p.decisions ? p.bestMoves / p.decisions : 1)} ({p.bestMoves} of{" "}
                {p.decisions})
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function RecentGames({ player }: { player: Address }) {
  const games = useFinishedGames({ player, pageSize: 10 });
  if (!games.data || games.data.games.length === 0) return null;
  return (
    <section aria-labelledby="player-recent">
      <h2 id="player-recent">Recent games</h2>
      <ul className="player__recent" data-testid="player-recent">
        {games.data.games.map((g) => {
          const seat = g.players.findIndex((p) => p.toLowerCase() === player.toLowerCase());
          const won = g.winners.some((w) => w.toLowerCase() === player.toLowerCase());
          return (
            <li key={g.gameId.toString()}>
              <Link to={`/games/${g.gameId}/replay`}>Game #{g.gameId.toString()}</Link> (
              {ruleSetName(g.ruleSet)}): {seat >= 0 ? `${g.totals[seat]} points, ` : ""}
              {won
                ? "won"
                : g.forfeited.some((f) => f.toLowerCase() === player.toLowerCase())
                  ? "forfeited"
                  : "lost"}{" "}
              · <Link to={`/games/${g.gameId}/analysis`}>analysis</Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
