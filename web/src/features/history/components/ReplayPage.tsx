import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { parseGameId } from "@dicehall/core/game/gameId.ts";
import {
  matchGameAbsence,
  matchGameStatus,
  type MatchGameStatus,
} from "@dicehall/core/game/match.ts";
import type { Address } from "viem";
import { useConnection } from "wagmi";
import { isRuleSetId, ruleSet } from "@dicehall/core/rules/ruleSets.ts";
import { useAnnounce } from "@/ui/announce.tsx";
import { gameReadProblem, NoSuchGame } from "@/ui/NoSuchGame.tsx";
import { formatTokenAmount, shortAddress } from "@dicehall/core/game/format.ts";
import { describeEntry } from "@dicehall/core/game/gameLog.ts";
import { foldGame, sameAddress, type GameState } from "@dicehall/core/game/gameState.ts";
import type { HallLog } from "@dicehall/core/events/hallEvents.ts";
import { useHall } from "@/chain/hall.ts";
import { useGameLogs } from "@/data/indexer.ts";
import {
  buildReplay,
  controlReplay,
  replayTableModel,
  stepDelay,
  stepOfRoll,
  type ReplayControl,
  type ReplayCursor,
  type ReplayWords,
} from "@dicehall/core/game/replay.ts";
import { GameTable } from "@/ui/table/GameTable.tsx";
import type { TableHandlers } from "@dicehall/core/game/tableModel.ts";
import { useTokenInfo } from "@/chain/tokens.ts";
import { SourceNotice } from "@/ui/SourceNotice.tsx";
import { verifyOrderDraw } from "@dicehall/core/game/verify.ts";
import { ReplayControls } from "./ReplayControls.tsx";
import { RollList } from "./RollList.tsx";
import { VerifyRoll } from "./VerifyRoll.tsx";
import "./history.css";

const NO_HANDLERS: TableHandlers = { onRoll: () => {}, onToggleKeep: () => {}, onScore: () => {} };
/** Controls that move one step forward: the table announces the new log line itself. */
const SMOOTH = new Set<ReplayControl["type"]>(["next", "tick", "play", "pause", "toggle", "speed"]);

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

/** The step the URL asks for: ?step=N (1-based) or ?roll=<sequence number>. */
function initialIndex(search: URLSearchParams, replay: ReturnType<typeof buildReplay>): number {
  const roll = search.get("roll");
  if (roll && /^\d+$/.test(roll)) {
    const index = stepOfRoll(replay, BigInt(roll));
    if (index >= 0) return index;
  }
  const step = Number(search.get("step"));
  return Number.isInteger(step) && step >= 1 ? Math.min(step, replay.steps.length) - 1 : 0;
}

/** /games/:id/replay: every roll and score of a game from its events, with the sheets of the moment. */
export function ReplayPage() {
  const params = useParams();
  const gameId = parseGameId(params.id);
  const hall = useHall();
  const snapshot = useGameLogs(gameId);

  if (gameId === null) {
    return (
      <NoSuchGame
        text={params.id}
        back={{ to: "/history", label: "See the history" }}
        reading="Replay"
      />
    );
  }
  const title = <h1>Replay of game #{gameId.toString()}</h1>;
  if (!hall) {
    return (
      <section className="page">
        {title}
        <p>There is no hall on this network. Switch networks above.</p>
      </section>
    );
  }
  if (snapshot.error && !snapshot.data) {
    return (
      <section className="page">
        {title}
        <SourceNotice notice={snapshot.notice} />
        <p role="alert">{gameReadProblem(snapshot.error)}</p>
      </section>
    );
  }
  if (!snapshot.data) {
    return (
      <section className="page">
        {title}
        <SourceNotice notice={snapshot.notice} />
        <p className="loading">Reading the game's events…</p>
      </section>
    );
  }
  return (
    <Replay
      gameId={gameId}
      logs={snapshot.data.logs}
      chainId={hall.chainId}
      notice={snapshot.notice}
    />
  );
}

/** The game a replay's `?game=` names: any number, so that game 9 of 3 is told it is none. */
function askedGame(search: URLSearchParams): number | null {
  const raw = search.get("game");
  return raw !== null && /^\d{1,4}$/.test(raw) ? Number(raw) : null;
}

/** Each game of a match, with its replay or why it has none. */
function MatchGames({
  table,
  logs,
  current,
}: {
  table: GameState;
  logs: HallLog[];
  current?: number;
}) {
  const id = table.gameId.toString();
  // Only the game the table is at (or ended in) may have no moves of its own.
  const lastMoves = useMemo(
    () => buildReplay(table.gameId, logs, table.match.number).steps.length,
    [table, logs],
  );
  const games = Array.from({ length: table.match.length }, (_, i) => i + 1);
  const words: Record<MatchGameStatus, string> = {
    played: "",
    "to come": "not started yet",
    "never played": "never played",
    beyond: "",
  };
  return (
    <nav aria-label="Games of the match">
      <ul className="match-games">
        {games.map((n) => {
          const status = matchGameStatus(table, n, n === table.match.number ? lastMoves : 0);
          return (
            <li key={n}>
              {status === "played" && n !== current ? (
                <Link to={`/games/${id}/replay?game=${n}`}>Replay game {n}</Link>
              ) : (
                <span aria-current={n === current ? "page" : undefined}>
                  Game {n}
                  {words[status] && ` (${words[status]})`}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function Replay({
  gameId,
  logs,
  chainId,
  notice,
}: {
  gameId: bigint;
  logs: HallLog[];
  chainId: number;
  notice: string | undefined;
}) {
  const table = useMemo(() => foldGame(gameId, logs), [gameId, logs]);
  const [search] = useSearchParams();
  const asked = askedGame(search);
  const matchTable = table.match.length > 1;
  // A game of a match: /games/12/replay?game=3 replays that game alone. A single game's game 1 is
  // the game itself.
  const game = matchTable ? asked : asked === 1 ? null : asked;
  if (game === null && !matchTable) {
    return <GameReplay gameId={gameId} logs={logs} chainId={chainId} notice={notice} />;
  }
  if (game === null) {
    // A match has no replay of its own: each of its games has one.
    return (
      <div className="page replay">
        <p className="breadcrumbs">
          <Link to="/history">History</Link> / Match #{gameId.toString()}
        </p>
        <h1>Replay of match #{gameId.toString()}</h1>
        <SourceNotice notice={notice} />
        <p>
          A match of {table.match.length} games: each game has its own replay, from its order draw
          to its last score.
        </p>
        <MatchGames table={table} logs={logs} />
      </div>
    );
  }
  const moves = buildReplay(gameId, logs, game).steps.length;
  const status = matchGameStatus(table, game, moves);
  if (status !== "played") {
    return (
      <div className="page replay">
        <p className="breadcrumbs">
          <Link to="/history">History</Link> / {matchTable ? "Match" : "Game"} #{gameId.toString()}
        </p>
        <h1>
          {status === "beyond"
            ? `No game ${game} ${matchTable ? `of match #${gameId}` : `at table #${gameId}`}`
            : `Game ${game} of match #${gameId}`}
        </h1>
        <SourceNotice notice={notice} />
        <p role="status">
          {matchGameAbsence(table, game, status)}
          {status === "to come" && " Its replay starts with its first roll."}
        </p>
        {matchTable && <MatchGames table={table} logs={logs} />}
      </div>
    );
  }
  return (
    <GameReplay
      gameId={gameId}
      logs={logs}
      chainId={chainId}
      notice={notice}
      game={game}
      table={table}
    />
  );
}

function GameReplay({
  gameId,
  logs,
  chainId,
  notice,
  game = null,
  table,
}: {
  gameId: bigint;
  logs: HallLog[];
  chainId: number;
  notice: string | undefined;
  game?: number | null;
  table?: GameState;
}) {
  const announce = useAnnounce();
  const { address: me } = useConnection();
  const [search, setSearch] = useSearchParams();
  const replay = useMemo(() => buildReplay(gameId, logs, game ?? undefined), [gameId, logs, game]);
  const length = replay.steps.length;
  const [cursor, setCursor] = useState<ReplayCursor>(() => ({
    index: initialIndex(search, replay),
    playing: false,
    speed: 1,
  }));
  // Remounting the table after a jump keeps it from announcing every line it skipped.
  const [generation, setGeneration] = useState(0);
  const token = useTokenInfo(replay.final.token);

  const words = useMemo<ReplayWords>(
    () => ({
      name: (a: Address) => (sameAddress(a, me) ? "You" : shortAddress(a)),
      amount: (v: bigint) => formatTokenAmount(v, token),
      me: me ?? null,
    }),
    [me, token],
  );

  const cursorRef = useRef(cursor);
  cursorRef.current = cursor;
  const control = useCallback(
    (c: ReplayControl) => {
      const current = cursorRef.current;
      const next = controlReplay(current, c, length);
      cursorRef.current = next;
      setCursor(next);
      if (!SMOOTH.has(c.type) && next.index !== current.index) {
        setGeneration((g) => g + 1);
        const step = replay.steps[next.index];
        if (step && replay.final.ruleSet !== null) {
          announce(
            `Step ${next.index + 1} of ${length}: ${describeEntry(step.entry, words, replay.final.ruleSet)}`,
          );
        }
      }
    },
    [length, replay, announce, words],
  );

  // Playing: one step per tick at the chosen speed.
  useEffect(() => {
    if (!cursor.playing) return;
    const timer = setTimeout(() => control({ type: "tick" }), stepDelay(cursor.speed));
    return () => clearTimeout(timer);
  }, [cursor.playing, cursor.index, cursor.speed, control]);

  // The URL follows the step (when paused), so a step can be shared.
  const lastWritten = useRef<number | null>(null);
  useEffect(() => {
    if (cursor.playing || length === 0 || lastWritten.current === cursor.index) return;
    lastWritten.current = cursor.index;
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete("roll");
        next.set("step", String(cursor.index + 1));
        return next;
      },
      { replace: true },
    );
  }, [cursor.index, cursor.playing, length, setSearch]);

  // ← → Home End step through; P plays or pauses.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target) || document.querySelector("[aria-modal='true']")) return;
      const map: Record<string, ReplayControl> = {
        ArrowLeft: { type: "prev" },
        ArrowRight: { type: "next" },
        Home: { type: "first" },
        End: { type: "last" },
        p: { type: "toggle" },
        P: { type: "toggle" },
      };
      const c = map[event.key];
      if (!c) return;
      event.preventDefault();
      control(c);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [control]);

  const info =
    replay.final.ruleSet !== null && isRuleSetId(replay.final.ruleSet)
      ? ruleSet(replay.final.ruleSet)
      : null;
  const index = Math.min(cursor.index, Math.max(0, length - 1));
  const model = replayTableModel(replay, index, words);
  const step = replay.steps[index];

  return (
    <div className="page replay">
      <div className="page__head">
        <div>
          <p className="breadcrumbs">
            <Link to="/history">History</Link> / Game #{gameId.toString()}
          </p>
          <h1>
            Replay of {game ? `game ${game} of match #${gameId}` : `game #${gameId}`}
            {info && (
              <>
                {" · "}
                <Link to={`/rules/${info.key}`}>{info.name}</Link>
              </>
            )}
          </h1>
        </div>
        <div className="replay-head__links">
          {replay.final.status === "finished" && (
            <Link className="button" to={`/games/${gameId}/analysis${game ? `?game=${game}` : ""}`}>
              The coach's analysis
            </Link>
          )}{" "}
          <Link className="button" to={`/games/${gameId}`}>
            Open the table
          </Link>
        </div>
      </div>
      <SourceNotice notice={notice} />
      {table && game !== null && <MatchGames table={table} logs={logs} current={game} />}

      {length === 0 || !model ? (
        <p>
          {replay.final.status === "cancelled"
            ? "This table was cancelled before it started: nothing to replay."
            : replay.final.status === "unknown"
              ? "There is no game with this number (yet)."
              : "This game has not started yet: nothing to replay."}
        </p>
      ) : (
        <>
          {replay.final.status === "running" && (
            <p className="muted">This game is still being played; the replay grows as it goes.</p>
          )}
          <ReplayControls cursor={{ ...cursor, index }} length={length} onControl={control} />
          <GameTable key={generation} model={model} handlers={NO_HANDLERS} />
          <div className="replay-side">
            {step?.entry.kind === "rolled" ? (
              <VerifyRoll
                roll={step.entry.roll}
                chainId={chainId}
                blockNumber={step.entry.blockNumber}
                orderDraw={verifyOrderDraw(replay.final.log, step.entry.id)}
                name={words.name}
              />
            ) : (
              <section className="card verify" aria-labelledby="verify-title">
                <h2 id="verify-title">Verify a roll</h2>
                <p className="muted">
                  Step to a roll (or pick one from the list) to recompute its dice from the random
                  number Pyth Entropy revealed.
                </p>
              </section>
            )}
            <RollList
              replay={replay}
              current={index}
              onSeek={(i) => control({ type: "seek", index: i })}
              words={words}
            />
          </div>
        </>
      )}
    </div>
  );
}
