// The session key in React: the player's session as the chain holds it, this browser's key and
// who signs the moves (session.ts decides), and what a new session for a game costs (sized by
// core/contract/session.ts from the roll fee and the gas price of now).
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { Address, PrivateKeyAccount } from "viem";
import { getBalance, getGasPrice, readContract } from "viem/actions";
import {
  gameSessionNeeds,
  sessionExpiry,
  type SessionNeeds,
} from "@dicehall/core/contract/session.ts";
import { queryKeys } from "@/data/queryKeys.ts";
import { useHall, type Hall } from "./hall.ts";
import { chooseSigner, ensureSessionKey, loadSessionKey, type MoveSigner } from "./session.ts";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { isNative } from "./tokens.ts";

export interface SessionOnChainView {
  key: Address;
  expiresAt: number;
  feeAllowance: bigint;
}

/** The player's session on chain, this browser's key and its balance, and who signs. */
export interface PlayerSession {
  /** This browser's key for the player (null when it has none). */
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
  return { key: view.key, expiresAt: Number(view.expiresAt), feeAllowance: view.feeAllowance };
}

export function usePlayerSession(me: Address | undefined, nowSec: number): PlayerSession {
  const hall = useHall();
  const key = useMemo(() => (hall && me ? loadSessionKey(hall.chainId, me) : null), [hall, me]);
  const query = useQuery({
    queryKey: hall && me ? queryKeys.session(hall.scope, me) : queryKeys.idle("session"),
    queryFn: async () => {
      const [onChain, keyBalance] = await Promise.all([
        fetchSession(hall!, me!),
        key ? getBalance(hall!.client, { address: key.address }) : Promise.resolve(undefined),
      ]);
      return { onChain, keyBalance };
    },
    enabled: !!hall && !!me,
    refetchInterval: 15_000,
    placeholderData: (prev) => prev,
  });
  const onChain = query.data?.onChain;
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

/** Today's gas price and the hall's roll fee, for sizing a session. */
export function useSessionPrices(rollFee: bigint | undefined) {
  const hall = useHall();
  const gasPrice = useQuery({
    queryKey: hall ? [...queryKeys.hall(hall.scope), "gasPrice"] : queryKeys.idle("gasPrice"),
    queryFn: () => getGasPrice(hall!.client),
    enabled: !!hall,
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
    enabled: !!hall && rollFee === undefined,
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

/** The grant for the contract: this browser's key (made now if it has none) and the offer. */
export function sessionGrant(hall: Hall, player: Address, offer: SessionOffer) {
  const key = ensureSessionKey(hall.chainId, player);
  if (!key) return null;
  return {
    key: key.address,
    expiresAt: BigInt(offer.expiresAt),
    feeAllowance: offer.needs.feeDeposit,
    keyGas: offer.needs.keyGas,
  };
}
