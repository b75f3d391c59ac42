import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { erc20Abi, zeroAddress, type Address, type Client } from "viem";
import { getBalance, readContract } from "viem/actions";
import type { TokenLike } from "@dicehall/core/game/format.ts";
import type { Hall } from "./hall.ts";
import { useHall } from "./hall.ts";
import { queryKeys } from "@/data/queryKeys.ts";

/** address(0) is the chain's native coin, as in GameConfig.token. */
export const NATIVE: Address = zeroAddress;
export const isNative = (token: Address) => token.toLowerCase() === NATIVE;

export interface TokenInfo extends TokenLike {
  address: Address;
  native: boolean;
}

export async function fetchTokenInfo(hall: Hall, token: Address): Promise<TokenInfo> {
  if (isNative(token)) {
    const { symbol, decimals } = hall.chain.nativeCurrency;
    return { address: NATIVE, symbol, decimals, native: true };
  }
  const [symbol, decimals] = await Promise.all([
    readContract(hall.client, { address: token, abi: erc20Abi, functionName: "symbol" }),
    readContract(hall.client, { address: token, abi: erc20Abi, functionName: "decimals" }),
  ]);
  return { address: token, symbol, decimals, native: false };
}

/**
 * What is known of a token without a read: the chain's coin from the chain's own description, a
 * token from the hall's settings when they are already read. Undefined otherwise.
 */
export function knownTokenInfo(
  hall: Hall,
  token: Address,
  queryClient: QueryClient,
): TokenInfo | undefined {
  if (isNative(token)) {
    const { symbol, decimals } = hall.chain.nativeCurrency;
    return { address: NATIVE, symbol, decimals, native: true };
  }
  // settings.ts's HallSettings, by shape: settings.ts reads tokens through this file.
  const settings = queryClient.getQueryData<{ tokens: readonly TokenInfo[] }>(
    queryKeys.settings(hall.scope),
  );
  const known = settings?.tokens.find((t) => t.address.toLowerCase() === token.toLowerCase());
  return (
    known && {
      address: known.address,
      symbol: known.symbol,
      decimals: known.decimals,
      native: false,
    }
  );
}

export function useTokenInfo(token: Address | null | undefined): TokenInfo | undefined {
  const hall = useHall();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.tokenInfo(hall?.chainId ?? 0, token ?? NATIVE),
    queryFn: () => fetchTokenInfo(hall!, token!),
    enabled: !!hall && !!token,
    staleTime: Infinity,
    // On the first paint a symbol, not an address, wherever it is known without a read.
    initialData: () => (hall && token ? knownTokenInfo(hall, token, queryClient) : undefined),
  });
  return query.data;
}

export async function fetchBalance(
  client: Client,
  token: Address,
  account: Address,
): Promise<bigint> {
  if (isNative(token)) return getBalance(client, { address: account });
  return readContract(client, {
    address: token,
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [account],
  });
}

export function useTokenBalance(token: Address | null | undefined, account: Address | undefined) {
  const hall = useHall();
  return useQuery({
    queryKey: queryKeys.balance(hall?.chainId ?? 0, account ?? NATIVE, token ?? NATIVE),
    queryFn: () => fetchBalance(hall!.client, token!, account!),
    enabled: !!hall && !!token && !!account,
    refetchInterval: 30_000,
  });
}

export function useAllowance(token: Address | null | undefined, owner: Address | undefined) {
  const hall = useHall();
  return useQuery({
    queryKey: queryKeys.allowance(
      hall?.chainId ?? 0,
      token ?? NATIVE,
      owner ?? NATIVE,
      hall?.address ?? NATIVE,
    ),
    queryFn: () =>
      readContract(hall!.client, {
        address: token!,
        abi: erc20Abi,
        functionName: "allowance",
        args: [owner!, hall!.address],
      }),
    enabled: !!hall && !!token && !!owner && !isNative(token),
  });
}
