// The session key in React: the player's session as the chain holds it, this browser's key and
// who signs the moves (session.ts decides), and what a new session for a game costs (sized by
// core/contract/session.ts from the roll fee and the gas price of now).
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { zeroAddress, type Address, type PrivateKeyAccount } from "viem";
import { sameAddress } from "@dicehall/core/game/gameState.ts";
import { getBalance, getBlockNumber, getGasPrice, readContract } from "viem/actions";
import {
  addressTopic,
  extendLogs,
  sessionEventSelectors,
  type LogCache,
} from "@dicehall/core/events/hallEvents.ts";
import {
  gameSessionNeeds,
  sessionExpiry,
  type SessionNeeds,
} from "@dicehall/core/contract/session.ts";
import { queryKeys } from "@/data/queryKeys.ts";
import { useHall, type Hall } from "./hall.ts";
import {
  chooseSigner,
  heldKey,
  loadSessionKeys,
  newSessionKey,
  sessionRecords,
  type MoveSigner,
  type SessionRecord,
} from "./session.ts";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { signSessionConsent } from "@dicehall/core/contract/sessionConsent.ts";
import { isNative } from "./tokens.ts";

export interface SessionOnChainView {
  key: Address;
  expiresAt: number;
  feeAllowance: bigint;
  /** The key may act now; false for a session kept on chain after it expired. */
  active: boolean;
}

/** The player's session on chain, this browser's key and its balance, and who signs. */
export interface PlayerSession {
  /** This browser's key that the chain's session names (null when it holds none such). */
  key: PrivateKeyAccount | null;
  onChain: SessionOnChainView | undefined;
  keyBalance: bigint | undefined;
  signer: MoveSigner;
  /** The key to sign a move with: this browser's key while its session is live, else null. */
  signingKey: PrivateKeyAccount | null;
  loading: boolean;
}

export async function fetchSession(hall: Hall, player: Address): Promise<SessionOnChainView> {
  const view = await readContract(hall.client, {
    address: hall.address,
    abi: diceHallAbi,
    functionName: "session",
    args: [player],
  });
  return {
    key: view.key,
    expiresAt: Number(view.expiresAt),
    feeAllowance: view.feeAllowance,
    active: view.active,
  };
}

export function usePlayerSession(me: Address | undefined, nowSec: number): PlayerSession {
  const hall = useHall();
  const query = useQuery({
    queryKey: hall && me ? queryKeys.session(hall.scope, me) : queryKeys.idle("session"),
    queryFn: async () => {
      const onChain = await fetchSession(hall!, me!);
      // Read on every refresh: a grant just sent made a new key.
      const accounts = loadSessionKeys(hall!.chainId, me!).map((k) => k.account);
      const key = heldKey(accounts, onChain.key);
      const keyBalance = key ? await getBalance(hall!.client, { address: key.address }) : undefined;
      return { onChain, key, keyBalance };
    },
    enabled: !!hall && !!me,
    refetchInterval: 15_000,
    placeholderData: (prev) => prev,
  });
  const onChain = query.data?.onChain;
  const key = query.data?.key ?? null;
  const signer = chooseSigner(onChain, key?.address, nowSec);
  return {
    key,
    onChain,
    keyBalance: query.data?.keyBalance,
    signer,
    signingKey: signer.by === "key" ? key : null,
    loading: query.isPending && !!me,
  };
}

/**
 * Today's gas price and the hall's roll fee, for sizing a session; `enabled` false holds the reads
 * back (ui/Later.tsx's useLater).
 */
export function useSessionPrices(rollFee: bigint | undefined, enabled = true) {
  const hall = useHall();
  const gasPrice = useQuery({
    queryKey: hall ? [...queryKeys.hall(hall.scope), "gasPrice"] : queryKeys.idle("gasPrice"),
    queryFn: () => getGasPrice(hall!.client),
    enabled: !!hall && enabled,
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
  const hallFee = useQuery({
    queryKey: hall ? [...queryKeys.hall(hall.scope), "hallRollFee"] : queryKeys.idle("hallFee"),
    queryFn: () =>
      readContract(hall!.client, {
        address: hall!.address,
        abi: diceHallAbi,
        functionName: "rollFee",
      }),
    enabled: !!hall && enabled && rollFee === undefined,
    staleTime: 30_000,
  });
  return { gasPrice: gasPrice.data, rollFee: rollFee ?? hallFee.data };
}

/** What a session for one game costs and grants; null until the prices are known. */
export interface SessionOffer {
  needs: SessionNeeds;
  expiresAt: number;
  /** The value the create/join call carries: the bet (native coin only), the key's gas and the fees. */
  value: bigint;
}

export function sessionOffer({
  needs,
  token,
  bet,
  expiresAt,
}: {
  needs: SessionNeeds;
  token: Address;
  bet: bigint;
  expiresAt: number;
}): SessionOffer {
  return {
    needs,
    expiresAt,
    value: (isNative(token) ? bet : 0n) + needs.keyGas + needs.feeDeposit,
  };
}

/**
 * The offer for a game of `boxes` boxes, or a match of `games` of them (one confirmation for the
 * whole match), at the prices of now; null until they are known.
 */
export function useSessionOffer(
  game: {
    token: Address;
    bet: bigint;
    boxes: number;
    seats: number;
    joinWindow: number;
    moveTimeout: number;
    games?: number;
  } | null,
  nowSec: number,
  rollFee?: bigint,
): SessionOffer | null {
  const prices = useSessionPrices(rollFee);
  if (!game || prices.gasPrice === undefined || prices.rollFee === undefined) return null;
  const needs = gameSessionNeeds(game.boxes, prices.rollFee, prices.gasPrice, game.games ?? 1);
  const expiresAt = sessionExpiry({ nowSec, ...game });
  return sessionOffer({ needs, token: game.token, bet: game.bet, expiresAt });
}

/** How many fresh keys a grant tries before it gives up (each one named by someone else already). */
const FRESH_KEY_TRIES = 3;

/**
 * The grant for the contract, with the key's signed consent (the call's `consent` argument; the
 * grant's struct ignores it): a fresh key (a new one for every session, and another whenever the
 * chain already names it for someone else) with the offer. Null where the browser cannot keep a
 * key (or, beyond belief, every fresh key was taken): the player then signs every move.
 */
export async function sessionGrant(hall: Hall, player: Address, offer: SessionOffer) {
  for (let i = 0; i < FRESH_KEY_TRIES; i++) {
    const key = newSessionKey(hall.chainId, player);
    if (!key) return null;
    // A read that fails says nothing against a key nobody has seen: it is used.
    const holder = await readContract(hall.client, {
      address: hall.address,
      abi: diceHallAbi,
      functionName: "sessionPlayer",
      args: [key.address],
    }).catch(() => zeroAddress);
    if (holder !== zeroAddress && !sameAddress(holder, player)) continue;
    const grant = {
      key: key.address,
      expiresAt: BigInt(offer.expiresAt),
      feeAllowance: offer.needs.feeDeposit,
      keyGas: offer.needs.keyGas,
    };
    // The key's own consent to act for this player with this grant, in this hall on this chain:
    // the hall names no address as a key without it.
    const consent = await signSessionConsent(key, {
      chainId: hall.chainId,
      hall: hall.address,
      player,
      grant,
    });
    return { ...grant, consent };
  }
  return null;
}

/** The player's sessions as any browser of theirs can see them: on chain, and each key's coin. */
export interface SessionHistory {
  /** The player's session now (all zero once paid out or revoked). */
  onChain: SessionOnChainView;
  /** Every session the player opened, oldest first, with the game it came with. */
  records: SessionRecord[];
  /** What each of the last few keys holds, by lower-case address. */
  balances: Map<string, bigint>;
}

/** How many of the player's latest keys have their coin read. */
const KEYS_READ = 5;

/**
 * The player's sessions from the chain alone (their SessionOpened logs, `session(player)`, the
 * keys' balances), so a browser that never held a key still says what it holds and when the rest
 * comes back. `gameLogs` are the hall's game logs, which name each session's game.
 */
export function useSessionHistory(
  me: Address | undefined,
  gameLogs: readonly Parameters<typeof sessionRecords>[2][number][],
): { data: SessionHistory | undefined } {
  const hall = useHall();
  const queryClient = useQueryClient();
  const logsKey =
    hall && me ? [...queryKeys.session(hall.scope, me), "logs"] : ["idle", "sessionLogs"];
  const logs = useQuery({
    queryKey: logsKey,
    queryFn: async (): Promise<LogCache> => {
      const head = await getBlockNumber(hall!.client, { cacheTime: 0 });
      const { logs, syncedTo } = await extendLogs(
        hall!.client,
        { address: hall!.address, topics: [sessionEventSelectors(), addressTopic(me!)] },
        queryClient.getQueryData<LogCache>(logsKey),
        hall!.deployment.deploymentBlock,
        head,
      );
      return { logs, syncedTo };
    },
    enabled: !!hall && !!me,
    refetchInterval: 15_000,
    placeholderData: (prev) => prev,
  });
  const keys = (logs.data?.logs ?? [])
    .filter((l) => l.eventName === "SessionOpened")
    .slice(-KEYS_READ)
    .map((l) => (l.args as { key: Address }).key.toLowerCase());
  const state = useQuery({
    queryKey:
      hall && me
        ? [...queryKeys.balancesOnChain(hall.chainId), "sessionHistory", me.toLowerCase(), ...keys]
        : queryKeys.idle("sessionHistory"),
    queryFn: async () => {
      const [onChain, ...amounts] = await Promise.all([
        fetchSession(hall!, me!),
        ...keys.map((k) => getBalance(hall!.client, { address: k as Address })),
      ]);
      return { onChain, balances: new Map(keys.map((k, i) => [k, amounts[i]])) };
    },
    enabled: !!hall && !!me && logs.data !== undefined,
    refetchInterval: 10_000,
    placeholderData: (prev) => prev,
  });
  if (!state.data || !logs.data || !me) return { data: undefined };
  return {
    data: {
      onChain: state.data.onChain,
      records: sessionRecords(me, logs.data.logs, gameLogs),
      balances: state.data.balances,
    },
  };
}
