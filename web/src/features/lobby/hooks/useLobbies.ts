import { useMemo } from "react";
import type { Address } from "viem";
import { useConnection } from "wagmi";
import { useGameViews, useHallGames, useInvites, type GameView } from "@/data/gameData.ts";
import { currentPlayer, sameAddress, type GameState } from "@dicehall/core/game/gameState.ts";

/** "draw": every seat is taken and nobody has made the first roll, which any player may make. */
export type MyGameKind = "waiting" | "draw" | "myTurn" | "playing" | "finished" | "cancelled";

/** Where one of my games stands, for the lobby's list. */
export function myGameKind(g: GameState, me: Address | undefined): MyGameKind {
  if (g.status === "open") return "waiting";
  if (g.status === "running") {
    if (!g.orderDrawn) return "draw";
    return sameAddress(currentPlayer(g), me) ? "myTurn" : "playing";
  }
  return g.status === "cancelled" ? "cancelled" : "finished";
}

export interface LobbyRow {
  game: GameState;
  /** getGame() once read: join deadline while open, move deadline while running. */
  view: GameView | undefined;
}

export interface MyGameRow extends LobbyRow {
  kind: MyGameKind;
}

const newestFirst = (a: LobbyRow, b: LobbyRow) => (a.game.gameId > b.game.gameId ? -1 : 1);

/** The lobby's three lists, folded from the hall's events, with views for the live ones. */
export function useLobbies(now: number) {
  const { address } = useConnection();
  const { games, isPending, error } = useHallGames();
  const invites = useInvites(address);

  const { open, mine, invited, liveIds } = useMemo(() => {
    const all = [...games.values()];
    const seated = (g: GameState, a: Address | undefined) =>
      g.players.some((p) => sameAddress(p, a));
    const open = all.filter((g) => g.status === "open" && !g.isPrivate);
    const mine = all.filter(
      (g) =>
        !!address && (seated(g, address) || g.result?.players.some((p) => sameAddress(p, address))),
    );
    const invitedIds = new Set((invites.data ?? []).map(String));
    const invited = all.filter(
      (g) => g.status === "open" && invitedIds.has(String(g.gameId)) && !seated(g, address),
    );
    const liveIds = [
      ...new Set(
        [
          ...open,
          ...invited,
          ...mine.filter((g) => g.status === "open" || g.status === "running"),
        ].map((g) => g.gameId),
      ),
    ];
    return { open, mine, invited, liveIds };
  }, [games, address, invites.data]);

  const views = useGameViews(liveIds);
  const row = (game: GameState): LobbyRow => ({ game, view: views.data?.get(String(game.gameId)) });
  const joinable = (r: LobbyRow) => !r.view || Number(r.view.deadline) * 1000 > now;

  const order: Record<MyGameKind, number> = {
    myTurn: 0,
    draw: 0,
    waiting: 1,
    playing: 2,
    finished: 3,
    cancelled: 4,
  };

  return {
    isPending,
    error,
    open: open.map(row).filter(joinable).sort(newestFirst),
    invited: invited.map(row).filter(joinable).sort(newestFirst),
    mine: mine
      .map((g): MyGameRow => ({ ...row(g), kind: myGameKind(g, address) }))
      .sort((a, b) => order[a.kind] - order[b.kind] || newestFirst(a, b)),
    tokens: [
      ...new Set([...games.values()].flatMap((g) => (g.token ? [g.token.toLowerCase()] : []))),
    ] as Address[],
  };
}
