import { useState } from "react";
import { Link, useLocation } from "react-router";
import type { Address } from "viem";
import { useConnection } from "wagmi";
import { rematchesFor } from "@dicehall/core/game/rematch.ts";
import { useHallGames } from "@/data/gameData.ts";
import { AddressName } from "./Address.tsx";

const DISMISSED_KEY = "dicehall.rematch.dismissed";

function dismissed(): string[] {
  try {
    return JSON.parse(sessionStorage.getItem(DISMISSED_KEY) ?? "[]") as string[];
  } catch {
    return [];
  }
}

/**
 * Wherever the player is in the app: another player of a game they finished has opened the rematch
 * and is waiting for them. Not only under Invitations on the lobby page.
 */
export function RematchNotice() {
  const { address } = useConnection();
  // The hall's games are read only for a connected player: nobody else can be invited.
  return address ? <RematchOffer address={address} /> : null;
}

function RematchOffer({ address }: { address: Address }) {
  const { games } = useHallGames();
  const { pathname } = useLocation();
  const [hidden, setHidden] = useState(dismissed);
  const offer = rematchesFor(address, games.values()).find(
    (r) => !hidden.includes(String(r.lobby.gameId)),
  );
  if (!offer) return null;
  const lobbyPath = `/games/${offer.lobby.gameId}`;
  // The lobby's own page, and the end screen of the game it replays, say it themselves.
  if (pathname === lobbyPath || pathname === `/games/${offer.of.gameId}`) return null;
  const who = offer.lobby.creator ? <AddressName address={offer.lobby.creator} /> : "A player";
  return (
    <aside className="notice notice--rematch" aria-label="Rematch" role="status">
      <p>
        {who} wants a rematch of game #{String(offer.of.gameId)}.{" "}
        <Link to={lobbyPath}>Join game #{String(offer.lobby.gameId)}</Link>
      </p>
      <button
        type="button"
        className="button button--quiet"
        onClick={() => {
          const next = [...hidden, String(offer.lobby.gameId)];
          sessionStorage.setItem(DISMISSED_KEY, JSON.stringify(next));
          setHidden(next);
        }}
      >
        Not now
      </button>
    </aside>
  );
}
