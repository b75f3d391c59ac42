import { useEffect, useMemo, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { Address } from "viem";
import { getBalance, getGasPrice } from "viem/actions";
import { useConnection } from "wagmi";
import { leftoverGas } from "@dicehall/core/contract/session.ts";
import { formatTimestamp, formatTokenAmount } from "@dicehall/core/game/format.ts";
import { sameAddress } from "@dicehall/core/game/gameState.ts";
import { describeError } from "@/chain/errors.ts";
import { useHall, type Hall } from "@/chain/hall.ts";
import {
  keyAction,
  slotReturn,
  slotReturnSentence,
  type KeyAction,
  type KeyFacts,
  type PlayerGames,
} from "@/chain/keyWatch.ts";
import { forgetSessionKey, loadSessionKeys, playedWithKey } from "@/chain/session.ts";
import { fetchSession, useSessionHistory } from "@/chain/sessionHooks.ts";
import { payOutSession, returnKeyGas, type Payout } from "@/chain/sessionPayout.ts";
import { NATIVE } from "@/chain/tokens.ts";
import { useHallGames, useHallLogs } from "@/data/gameData.ts";
import { queryKeys } from "@/data/queryKeys.ts";
import { useChainNow } from "./useNow.ts";

/**
 * The session keys of the connected player in this browser, on every page (not only at a table):
 * a key whose games are all over pays the player out by itself (the credit in the hall, then its
 * leftover gas), and a key whose session is over but that still holds coin is shown, with one
 * button that sends it back. No wallet opens for either.
 */
export function SessionKeys() {
  const { address } = useConnection();
  const hall = useHall();
  return address && hall ? (
    <>
      <PlayerKeys hall={hall} me={address} />
      <EarlierKeys hall={hall} me={address} />
    </>
  ) : null;
}

const NO_LOGS: never[] = [];

/**
 * What the player's keys hold, read from the chain alone, so any browser of the player's says it
 * (issue 43: a key's browser closed for good must not leave its coin unspoken of): the coin set
 * aside in the hall for the session, when it comes back, and the coin keys made elsewhere hold.
 * A key this browser holds and that plays on is the table's to speak of; PlayerKeys returns the
 * coin of this browser's own keys.
 */
function EarlierKeys({ hall, me }: { hall: Hall; me: Address }) {
  const logs = useHallLogs();
  const { games } = useHallGames();
  const { data } = useSessionHistory(me, logs.data?.logs ?? NO_LOGS);
  const nowSec = Math.floor(useChainNow(5_000) / 1000);
  const native = hall.chain.nativeCurrency;
  const coin = (v: bigint) => formatTokenAmount(v, native, 6);
  if (!data) return null;
  const held = new Set(
    loadSessionKeys(hall.chainId, me).map((k) => k.account.address.toLowerCase()),
  );
  const { onChain, records, balances } = data;
  const current = onChain.key.toLowerCase();
  const record = records.findLast((r) => r.key.toLowerCase() === current);
  const game = record?.gameId != null ? games.get(record.gameId) : undefined;
  const back = slotReturn(
    {
      slot: onChain.feeAllowance,
      expiresAt: onChain.expiresAt,
      gameId: record?.gameId ?? null,
      gameOver: game?.status === "finished" || game?.status === "cancelled",
    },
    nowSec,
  );
  // This browser's live key is at work at a table, which says what is set aside for it.
  const showSlot = back !== null && (!held.has(current) || !onChain.active);
  const elsewhere = [...balances]
    .filter(([key]) => !held.has(key))
    .reduce((sum, [, amount]) => sum + amount, 0n);
  if (!showSlot && elsewhere === 0n) return null;
  return (
    <aside className="notice notice--keys" aria-label="Your session keys' coin">
      {showSlot && (
        <p data-testid="slot-held">
          {coin(onChain.feeAllowance)} is set aside in the hall for your session key
          {held.has(current) ? "" : " (made in another browser)"}.{" "}
          {slotReturnSentence(back, (t) => formatTimestamp(t))}
        </p>
      )}
      {elsewhere > 0n && (
        <p data-testid="key-coin-elsewhere">
          Session keys of yours made in another browser hold {coin(elsewhere)} of gas (a key holds a
          couple of moves&apos; worth): only the browser that made a key can send its coin back, and
          it does when it next opens the hall.
        </p>
      )}
    </aside>
  );
}

/** A key's facts and the action decided for it. */
interface KeyPlan {
  facts: KeyFacts;
  action: KeyAction;
}

/** Keys at work (a payout or a return in flight), across renders and pages. */
const working = new Set<string>();

function PlayerKeys({ hall, me }: { hall: Hall; me: Address }) {
  const queryClient = useQueryClient();
  const { games, isPending } = useHallGames();
  const nowMs = useChainNow(5_000);
  const native = hall.chain.nativeCurrency;
  const coin = (v: bigint) => formatTokenAmount(v, native, 6);

  const keys = useQuery({
    queryKey: [...queryKeys.balancesOnChain(hall.chainId), "sessionKeys", me.toLowerCase()],
    queryFn: async () => {
      const stored = loadSessionKeys(hall.chainId, me);
      if (stored.length === 0) return [];
      const [onChain, price] = await Promise.all([
        fetchSession(hall, me),
        getGasPrice(hall.client),
      ]);
      return Promise.all(
        stored.map(async (k) => {
          const balance = await getBalance(hall.client, { address: k.account.address });
          return {
            key: k.account.address,
            madeAt: k.madeAt,
            gameId: k.gameId,
            balance,
            returnable: leftoverGas(balance, price + price / 4n),
            expiresAt:
              onChain.active && sameAddress(onChain.key, k.account.address) ? onChain.expiresAt : 0,
          };
        }),
      );
    },
    refetchInterval: 10_000,
  });

  const playerGames = useMemo((): PlayerGames => {
    const over = new Set<bigint>();
    let busy = false;
    for (const g of games.values()) {
      if (!g.players.some((p) => sameAddress(p, me))) continue;
      if (g.status === "finished" || g.status === "cancelled") over.add(g.gameId);
      // Only a game played with a key from this browser keeps the live key: one signed with the
      // wallet throughout (or from another browser) needs none of its gas or roll fees.
      else if (
        (g.status === "open" || g.status === "running") &&
        !g.forfeited.some((p) => sameAddress(p, me)) &&
        playedWithKey(hall.chainId, me, g.gameId)
      )
        busy = true;
    }
    return { busy, over };
  }, [games, me, hall.chainId]);

  const plans = useMemo((): KeyPlan[] => {
    if (isPending || !keys.data) return [];
    const wallNow = Date.now();
    return keys.data.map(({ expiresAt, ...rest }) => {
      const facts: KeyFacts = { ...rest, live: expiresAt * 1000 > nowMs };
      return { facts, action: keyAction(facts, playerGames, wallNow) };
    });
  }, [isPending, keys.data, playerGames, nowMs]);

  const [payout, setPayout] = useState<Payout | null>(null);
  const [returned, setReturned] = useState<bigint | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [, setTick] = useState(0);
  const done = useRef(new Set<string>());

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.hall(hall.scope) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.balancesOnChain(hall.chainId) });
  };
  const explain = (err: unknown) => describeError(err, { nativeSymbol: native.symbol }).message;

  // A live key whose games are over pays out by itself; an empty key whose session is over goes.
  useEffect(() => {
    for (const { facts, action } of plans) {
      const id = facts.key.toLowerCase();
      if (action.kind === "forget") {
        forgetSessionKey(hall.chainId, me, facts.key);
        continue;
      }
      if (action.kind !== "payout" || working.has(id) || done.current.has(id)) continue;
      working.add(id);
      const game = facts.gameId === null ? undefined : games.get(facts.gameId);
      const tokens = [NATIVE, ...(game?.token ? [game.token] : [])];
      const key = loadSessionKeys(hall.chainId, me).find((k) =>
        sameAddress(k.account.address, facts.key),
      )?.account;
      if (!key) {
        working.delete(id);
        continue;
      }
      void payOutSession(hall, key, me, tokens, facts.live)
        .then((result) => {
          done.current.add(id);
          if (result.withdrawn.size > 0 || result.gasReturned > 0n) setPayout(result);
          setError(null);
          refresh();
        })
        .catch((err: unknown) => setError(explain(err)))
        .finally(() => {
          working.delete(id);
          setTick((t) => t + 1);
        });
    }
    // refresh and explain read only the hall and the coin's name, both in the deps.
  }, [plans, hall, me, games]);

  const toReturn = plans.filter((p) => p.action.kind === "return");
  const held = toReturn.reduce((sum, p) => sum + (p.action as { amount: bigint }).amount, 0n);
  const busy = toReturn.some((p) => working.has(p.facts.key.toLowerCase()));

  const sendBack = async () => {
    setError(null);
    let sent = 0n;
    for (const { facts } of toReturn) {
      const id = facts.key.toLowerCase();
      const key = loadSessionKeys(hall.chainId, me).find((k) =>
        sameAddress(k.account.address, facts.key),
      )?.account;
      if (!key || working.has(id)) continue;
      working.add(id);
      setTick((t) => t + 1);
      try {
        sent += await returnKeyGas(hall, key, me);
      } catch (err) {
        setError(explain(err));
      } finally {
        working.delete(id);
      }
    }
    if (sent > 0n) setReturned(sent);
    refresh();
  };

  const paidWords =
    payout &&
    [
      payout.withdrawn.size > 0
        ? "Your credit in the hall (winnings, refunds and unused roll fees) was sent to your wallet by the session key."
        : "",
      payout.gasReturned > 0n
        ? `The session key sent back its unused gas: ${coin(payout.gasReturned)}.`
        : "",
    ]
      .filter(Boolean)
      .join(" ");
  if (held === 0n && !paidWords && returned === null && !error) return null;
  return (
    <aside className="notice notice--keys" aria-label="Your session keys">
      {held > 0n && (
        <p data-testid="key-coin">
          A session key of yours in this browser still holds {coin(held)}: its session is over
          (ended, revoked or replaced), so it plays no more.{" "}
          <button
            type="button"
            className="button button--small"
            disabled={busy}
            onClick={() => void sendBack()}
          >
            Send it back to your wallet
          </button>
        </p>
      )}
      {busy && <p role="status">The session key is sending it back…</p>}
      {returned !== null && held === 0n && (
        <p role="status" data-testid="key-returned">
          The session key sent {coin(returned)} back to your wallet.{" "}
          <DismissButton onClick={() => setReturned(null)} />
        </p>
      )}
      {paidWords && (
        <p role="status" data-testid="session-payout">
          {paidWords} <DismissButton onClick={() => setPayout(null)} />
        </p>
      )}
      {error && (
        <p className="tx tx--error" role="alert">
          The session key could not pay out: {error} Your credit stays in the hall until you
          withdraw it.
        </p>
      )}
    </aside>
  );
}

function DismissButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="button button--quiet button--small" onClick={onClick}>
      OK
    </button>
  );
}
