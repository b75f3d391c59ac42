import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { useConnection } from "wagmi";
import { useHall } from "@/chain/hall.ts";
import { parseGameId } from "@dicehall/core/game/gameId.ts";
import { useFinishedGames } from "@/data/indexer.ts";
import { ReadError } from "@/ui/ReadError.tsx";
import { SourceNotice } from "@/ui/SourceNotice.tsx";
import { GameList } from "./GameList.tsx";
import "./history.css";

const PAGE = 20;

function FindGame() {
  const navigate = useNavigate();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent, to: "replay" | "table") => {
    event.preventDefault();
    const id = parseGameId(text);
    if (id === null) {
      setError("Type a game number, like 12.");
      return;
    }
    setError(null);
    navigate(to === "replay" ? `/games/${id}/replay` : `/games/${id}`);
  };
  return (
    <form
      className="card history-find"
      onSubmit={(e) => submit(e, "replay")}
      aria-labelledby="find-title"
    >
      <h2 id="find-title">Any game by number</h2>
      <div className="history-find__row">
        <div className="field">
          <label htmlFor="find-game">Game number</label>
          <input
            id="find-game"
            inputMode="numeric"
            autoComplete="off"
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "find-game-error" : undefined}
          />
        </div>
        <button type="submit" className="button button--primary">
          Watch the replay
        </button>
        <button type="button" className="button" onClick={(e) => submit(e, "table")}>
          Open the table
        </button>
      </div>
      {error && (
        <p id="find-game-error" className="field__error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}

/** /history: my finished games, the hall's latest ones, and any game by number. */
export function HistoryPage() {
  const hall = useHall();
  const { address: me } = useConnection();
  const recent = useFinishedGames({ pageSize: PAGE });
  const mine = useFinishedGames({ player: me, pageSize: PAGE, enabled: !!me });

  let lists;
  if (!hall) {
    lists = <p>There is no hall on this network. Switch networks to see its games.</p>;
  } else if (recent.error) {
    lists = <ReadError what="The hall's history" error={recent.error} onRetry={recent.refetch} />;
  } else if (!recent.data || (me && !mine.data)) {
    lists = <p className="loading">Reading the hall's finished games…</p>;
  } else {
    lists = (
      <>
        <section aria-labelledby="mine-title" className="history-section">
          <h2 id="mine-title">Your finished games</h2>
          {!me ? (
            <p className="muted">Connect a wallet to see the games you played.</p>
          ) : mine.data!.total === 0 ? (
            <p className="muted">
              None yet. <Link to="/games">Find a table</Link>.
            </p>
          ) : (
            <>
              <GameList
                games={mine.data!.games}
                me={me}
                caption="Your finished games, newest first"
              />
              {mine.hasMore && (
                <button type="button" className="button" onClick={mine.showMore}>
                  Show older games
                </button>
              )}
            </>
          )}
        </section>
        <section aria-labelledby="recent-title" className="history-section">
          <h2 id="recent-title">Latest games in the hall</h2>
          {recent.data.total === 0 ? (
            <p className="muted">No game has finished yet.</p>
          ) : (
            <GameList
              games={recent.data.games.slice(0, PAGE)}
              me={me}
              caption="The hall's latest finished games"
            />
          )}
        </section>
      </>
    );
  }

  return (
    <div className="page history">
      <div className="page__head">
        <div>
          <h1>History</h1>
          <p className="muted">
            Replay any game roll by roll, with every die checked against the random number Pyth
            Entropy revealed.
          </p>
        </div>
      </div>
      <FindGame />
      <SourceNotice notice={recent.notice ?? mine.notice} />
      {lists}
    </div>
  );
}
