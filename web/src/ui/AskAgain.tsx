import { useEffect, useMemo, useRef } from "react";
import type { Address } from "viem";
import { useConnection } from "wagmi";
import { keyCanMove } from "@dicehall/core/contract/session.ts";
import { sameAddress } from "@dicehall/core/game/gameState.ts";
import { useHall, type Hall } from "@/chain/hall.ts";
import { shouldAskAgain } from "@/chain/keyWatch.ts";
import { fetchRollFee } from "@/chain/settings.ts";
import { usePlayerSession, useSessionPrices } from "@/chain/sessionHooks.ts";
import { hallCall, sendWrite } from "@/chain/write.ts";
import { useGameViews, useHallGames } from "@/data/gameData.ts";
import { useChainNow } from "./useNow.ts";

/**
 * On every page, every seated player's open app asks again for a refused roll of their running
 * games, through this browser's session key (its fee from the roll fees set aside for the session,
 * within its allowance), the moment it may: whoever holds a roll refused must outlast every open
 * app at the table, not only the hall's keeper. Never through the wallet: nothing opens unasked.
 * A request someone else got in first is caught by the simulation, and nothing is sent.
 */
export function AskAgain() {
  const { address } = useConnection();
  const hall = useHall();
  return address && hall ? <KeyAsksAgain hall={hall} me={address} /> : null;
}

function KeyAsksAgain({ hall, me }: { hall: Hall; me: Address }) {
  const { games } = useHallGames();
  const ids = useMemo(
    () =>
      [...games.values()]
        .filter(
          (g) =>
            g.status === "running" &&
            g.rollOut?.refused === true &&
            g.players.some((p) => sameAddress(p, me)) &&
            !g.forfeited.some((p) => sameAddress(p, me)),
        )
        .map((g) => g.gameId),
    [games, me],
  );
  // Nothing refused at any of the player's tables (nearly always): no clock, no prices, no reads.
  return ids.length > 0 ? <AsksAgainAt hall={hall} me={me} ids={ids} /> : null;
}

function AsksAgainAt({ hall, me, ids }: { hall: Hall; me: Address; ids: bigint[] }) {
  const views = useGameViews(ids);
  const nowMs = useChainNow(1_000);
  const nowSec = Math.floor(nowMs / 1000);
  const session = usePlayerSession(me, nowSec);
  const { gasPrice } = useSessionPrices(undefined);
  /** Per game, the retry time this app last asked at. */
  const asked = useRef(new Map<string, bigint>());

  useEffect(() => {
    const key = session.signingKey;
    if (!key || session.keyBalance === undefined || gasPrice === undefined || !views.data) return;
    for (const gameId of ids) {
      const view = views.data.get(String(gameId));
      const id = String(gameId);
      if (!view || !shouldAskAgain(view, nowSec, asked.current.get(id))) continue;
      asked.current.set(id, view.retryAt);
      void (async () => {
        const fee = await fetchRollFee(hall, gameId);
        const setAside = session.onChain?.feeAllowance ?? 0n;
        const funds = {
          keyBalance: session.keyBalance!,
          allowanceLeft: setAside,
          credit: setAside,
          rollFee: fee,
          gasPrice,
        };
        if (!keyCanMove("roll", funds)) return;
        await sendWrite(
          hall,
          { by: "key", key },
          hallCall(hall.address, "roll", [gameId, view.pendingKeepMask], 0n),
        );
      })().catch(() => {
        // Someone asked first, or the call-off came: the table shows what happened.
      });
    }
  }, [ids, views.data, nowSec, session, gasPrice, hall]);

  return null;
}
