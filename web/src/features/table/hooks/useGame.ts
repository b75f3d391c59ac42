import { useMemo } from "react";
import type { Address } from "viem";
import { useConnection } from "wagmi";
import { useEnsNames } from "@/chain/ens.ts";
import type { ErrorContext } from "@/chain/errors.ts";
import { formatTokenAmount, shortAddress } from "@dicehall/core/game/format.ts";
import { useGameSnapshot } from "@/data/gameData.ts";
import type { LogWords } from "@dicehall/core/game/gameLog.ts";
import { sameAddress, STATUS_NAMES } from "@dicehall/core/game/gameState.ts";
import { useHall } from "@/chain/hall.ts";
import { NATIVE, useTokenInfo } from "@/chain/tokens.ts";
import { boxNameOf } from "./tableModel.ts";

/** One game from the chain (events + views at one block), with the words to talk about it. */
export function useGame(gameId: bigint | null) {
  const hall = useHall();
  const { address: me } = useConnection();
  const snapshot = useGameSnapshot(gameId);
  const view = snapshot.data?.view;
  const token = useTokenInfo(view?.config.token ?? snapshot.state?.token ?? NATIVE);
  const native = hall?.chain.nativeCurrency;
  const everyone = useMemo(
    () => [
      ...(view?.players ?? []),
      ...(snapshot.state?.invitees ?? []),
      ...(view?.creator ? [view.creator] : []),
    ],
    [view, snapshot.state],
  );
  const ens = useEnsNames(everyone);

  const words = useMemo<LogWords>(
    () => ({
      name: (a: Address) =>
        sameAddress(a, me) ? "You" : (ens.get(a.toLowerCase()) ?? shortAddress(a)),
      amount: (v: bigint) => formatTokenAmount(v, token),
    }),
    [me, ens, token],
  );
  const ruleSetId = view?.config.ruleSet ?? 0;
  /** Bets and refunds speak in the game's token. */
  const betContext: ErrorContext = {
    name: words.name,
    amount: words.amount,
    boxName: boxNameOf(ruleSetId),
    nativeSymbol: native?.symbol,
  };
  /** Roll fees are in the native coin. */
  const playContext: ErrorContext = {
    ...betContext,
    amount: (v: bigint) =>
      formatTokenAmount(v, native && { symbol: native.symbol, decimals: native.decimals }),
  };

  const status = view ? STATUS_NAMES[view.status] : undefined;
  const notFound = !!view && view.status === 0;
  return {
    hall,
    me,
    snapshot,
    view,
    state: snapshot.state,
    token,
    words,
    betContext,
    playContext,
    status,
    notFound,
  };
}
