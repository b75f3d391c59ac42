import { useMemo } from "react";
import { Link, useSearchParams } from "react-router";
import { useConnection } from "wagmi";
import { useGameViews } from "@/data/gameData.ts";
import { sameAddress } from "@dicehall/core/game/gameState.ts";
import { useHall } from "@/chain/hall.ts";
import { useHallSettings } from "@/chain/settings.ts";
import { CreateGameForm, type Prefill } from "./CreateGameForm.tsx";

/** /games/new, and /games/new?rematch=<id> to open the same table again for the same players. */
export function CreateGamePage() {
  const hall = useHall();
  const settings = useHallSettings();
  const { address } = useConnection();
  const [params] = useSearchParams();
  const rematchId = params.get("rematch");
  const rematch = useGameViews(rematchId && /^\d+$/.test(rematchId) ? [BigInt(rematchId)] : []);
  const source = rematchId ? rematch.data?.get(rematchId) : undefined;

  const prefill = useMemo<Prefill | null>(() => {
    if (!source) return null;
    const { config } = source;
    return {
      token: config.token,
      bet: config.bet,
      seats: config.seats,
      ruleSet: config.ruleSet,
      joinWindow: config.joinWindow,
      moveTimeout: config.moveTimeout,
      invitees: source.players.filter((p) => !sameAddress(p, address)),
      games: source.games,
    };
  }, [source, address]);

  if (!hall) {
    return (
      <section className="page">
        <h1>Open a table</h1>
        <p>There is no hall on this network.</p>
      </section>
    );
  }
  const waiting = settings.isPending || (!!rematchId && rematch.isPending);
  return (
    <section className="page create">
      <p className="breadcrumbs">
        <Link to="/games">Tables</Link> / Open a table
      </p>
      <h1>{rematchId ? `Rematch of game #${rematchId}` : "Open a table"}</h1>
      {rematchId && (
        <p className="lead">
          Same rules, bet and timing; the same players are invited. Change anything before opening.
        </p>
      )}
      {settings.error && (
        <p className="tx tx--error" role="alert">
          Can't read the hall's settings: {settings.error.message}
        </p>
      )}
      {waiting ? (
        <p className="muted">Reading the hall's settings…</p>
      ) : settings.data ? (
        <CreateGameForm key={rematchId ?? "new"} settings={settings.data} prefill={prefill} />
      ) : null}
    </section>
  );
}
