import { Link } from "react-router";
import { useConnection } from "wagmi";
import { ruleSet } from "@dicehall/core/rules/ruleSets.ts";
import { formatTokenAmount } from "@dicehall/core/game/format.ts";
import { sameAddress, type GameState } from "@dicehall/core/game/gameState.ts";
import { useHall } from "@/chain/hall.ts";
import { NATIVE, useTokenInfo } from "@/chain/tokens.ts";
import { AddressName } from "@/ui/Address.tsx";
import { Countdown } from "@/ui/Countdown.tsx";
import { Credits } from "@/ui/Credits.tsx";
import { useChainNow } from "@/ui/useNow.ts";
import { useLobbies, type LobbyRow, type MyGameKind, type MyGameRow } from "../hooks/useLobbies.ts";
import { PlayNow } from "./PlayNow.tsx";

function Bet({ game }: { game: GameState }) {
  const token = useTokenInfo(game.token ?? NATIVE);
  return <>{formatTokenAmount(game.bet, token)}</>;
}

function Seats({ game }: { game: GameState }) {
  return (
    <span className="seats">
      <span className="sr-only">{`${game.players.length} of ${game.seats} seats taken`}</span>
      {Array.from({ length: game.seats }, (_, i) => (
        <span
          key={i}
          className={`seats__seat${i < game.players.length ? " is-taken" : ""}`}
          aria-hidden="true"
        />
      ))}
      <span aria-hidden="true" className="seats__text">
        {game.players.length}/{game.seats}
      </span>
    </span>
  );
}

function RuleName({ game }: { game: GameState }) {
  const name = game.ruleSet === null ? "?" : ruleSet(game.ruleSet).name;
  // A match says how many games the one stake plays for.
  return <>{game.match.length > 1 ? `${name}, a match of ${game.match.length} games` : name}</>;
}

function LobbyList({ rows, empty, label }: { rows: LobbyRow[]; empty: string; label: string }) {
  if (rows.length === 0) return <p className="muted">{empty}</p>;
  return (
    <ul className="lobby-list" aria-label={label}>
      {rows.map(({ game, view }) => (
        <li key={String(game.gameId)} className="lobby-card">
          <div className="lobby-card__main">
            <p className="lobby-card__title">
              <span className="lobby-card__id">#{String(game.gameId)}</span>{" "}
              <RuleName game={game} />
              {game.isPrivate && <span className="pill">private</span>}
            </p>
            <p className="lobby-card__meta">
              <Seats game={game} />
              <span className="lobby-card__bet">
                <Bet game={game} /> a seat
              </span>
              <span>
                by <AddressName address={game.creator!} />
              </span>
            </p>
          </div>
          <div className="lobby-card__side">
            <span className="lobby-card__time">
              {view ? (
                <>
                  <span className="muted small">closes in </span>
                  <Countdown deadline={view.deadline} expired="closed" />
                </>
              ) : (
                <span className="muted small">…</span>
              )}
            </span>
            <Link className="button button--primary" to={`/games/${game.gameId}`}>
              View &amp; join
            </Link>
          </div>
        </li>
      ))}
    </ul>
  );
}

const KIND_TEXT: Record<MyGameKind, string> = {
  myTurn: "Your turn",
  draw: "Roll for the turn order",
  waiting: "Waiting for players",
  playing: "In play",
  finished: "Finished",
  cancelled: "Cancelled",
};

/** The clock of a live game in words: before its end, and once it has run out. */
const DUE_TEXT: Record<MyGameKind, { prefix: string; expired: string }> = {
  waiting: { prefix: "closes in ", expired: "closed" },
  draw: { prefix: "first roll due in ", expired: "no first roll: it can be called off" },
  myTurn: { prefix: "move due in ", expired: "move overdue" },
  playing: { prefix: "move due in ", expired: "move overdue" },
  finished: { prefix: "", expired: "" },
  cancelled: { prefix: "", expired: "" },
};

function Outcome({ row }: { row: MyGameRow }) {
  const { address } = useConnection();
  const token = useTokenInfo(row.game.token ?? NATIVE);
  const result = row.game.result;
  if (row.kind === "cancelled") return <span className="muted">Refunded</span>;
  if (!result) return null;
  const won = result.winners.some((w) => sameAddress(w, address));
  return won ? (
    <span className="outcome outcome--won">Won {formatTokenAmount(result.payoutEach, token)}</span>
  ) : (
    <span className="outcome">Lost</span>
  );
}

function MyGames({ rows }: { rows: MyGameRow[] }) {
  if (rows.length === 0) {
    return (
      <p className="muted">You haven't played here yet. Join an open table or open your own.</p>
    );
  }
  return (
    <ul className="lobby-list" aria-label="My games">
      {rows.map((row) => {
        const { game, view, kind } = row;
        const live = kind !== "finished" && kind !== "cancelled";
        const mine = kind === "myTurn" || kind === "draw";
        const deadline = view && view.deadline > 0n ? view.deadline : null;
        return (
          <li key={String(game.gameId)} className={`lobby-card lobby-card--${kind}`}>
            <div className="lobby-card__main">
              <p className="lobby-card__title">
                <span className="lobby-card__id">#{String(game.gameId)}</span>{" "}
                <RuleName game={game} />
                <span className={`status status--${kind}`}>{KIND_TEXT[kind]}</span>
              </p>
              <p className="lobby-card__meta">
                <Seats game={game} />
                <span>
                  <Bet game={game} /> a seat
                </span>
                {game.status === "running" && <span>Round {game.round}</span>}
                <Outcome row={row} />
              </p>
            </div>
            <div className="lobby-card__side">
              {live && deadline && (
                <span className="lobby-card__time">
                  <Countdown
                    deadline={deadline}
                    prefix={<span className="muted small">{DUE_TEXT[kind].prefix}</span>}
                    expired={DUE_TEXT[kind].expired}
                  />
                </span>
              )}
              <Link
                className={`button${mine ? " button--primary" : ""}`}
                to={`/games/${game.gameId}`}
              >
                {mine ? "Play" : live ? "Open" : "View"}
              </Link>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

export function LobbyPage() {
  const hall = useHall();
  const now = useChainNow(5_000);
  const { address } = useConnection();
  const lobbies = useLobbies(now);

  if (!hall) {
    return (
      <section className="page">
        <h1>Tables</h1>
        <p>There is no hall on this network. Switch networks (above) or start the local stack.</p>
      </section>
    );
  }
  return (
    <div className="page lobby">
      <div className="page__head">
        <h1>Tables</h1>
        <Link className="button button--primary" to="/games/new">
          Open a table
        </Link>
      </div>
      {address && <PlayNow rows={lobbies.open} nowMs={now} />}
      {lobbies.error && (
        <p className="tx tx--error" role="alert">
          Can't read the hall's tables right now: {lobbies.error.message}
        </p>
      )}
      {address && (
        <>
          <Credits tokens={[NATIVE, ...lobbies.tokens]} title="Your credit in the hall" />
          <section aria-labelledby="mine-title" className="lobby__section">
            <h2 id="mine-title">My games</h2>
            {lobbies.isPending ? (
              <p className="muted">Reading the hall…</p>
            ) : (
              <MyGames rows={lobbies.mine} />
            )}
          </section>
          {lobbies.invited.length > 0 && (
            <section aria-labelledby="invited-title" className="lobby__section">
              <h2 id="invited-title">Invitations</h2>
              <LobbyList rows={lobbies.invited} empty="" label="Invitations" />
            </section>
          )}
        </>
      )}
      <section aria-labelledby="open-title" className="lobby__section">
        <h2 id="open-title">Open tables</h2>
        {lobbies.isPending ? (
          <p className="muted">Reading the hall…</p>
        ) : (
          <LobbyList
            rows={lobbies.open}
            empty="No open tables right now. Open one and share the link."
            label="Open tables"
          />
        )}
      </section>
      {!address && <p className="muted">Connect a wallet to see your games and invitations.</p>}
    </div>
  );
}
