import { useQueries, useQuery } from "@tanstack/react-query";
import { createPublicClient, http, type Address, type PublicClient } from "viem";
import { mainnet } from "viem/chains";
import { queryKeys } from "@/data/queryKeys.ts";

/**
 * ENS lives on Ethereum mainnet, which is not one of the hall's chains: names are looked up only
 * when a mainnet RPC is configured (VITE_MAINNET_RPC_URL), and skipped quietly otherwise. The name
 * normalisation (ENSIP-15's tables, ~45 KB gzip) loads with the first name looked up, never in the
 * first load.
 */
const normalize = async (name: string): Promise<string> =>
  (await import("viem/ens")).normalize(name);
const mainnetUrl = import.meta.env.VITE_MAINNET_RPC_URL;
let client: PublicClient | null | undefined;

function ensClient(): PublicClient | null {
  if (client === undefined) {
    client = mainnetUrl
      ? (createPublicClient({ chain: mainnet, transport: http(mainnetUrl) }) as PublicClient)
      : null;
  }
  return client;
}

export const ensAvailable = (): boolean => !!mainnetUrl;

function useEnsNameQuery(address: Address | undefined): string | null {
  const query = useQuery({
    queryKey: queryKeys.ensName(address ?? "0x0000000000000000000000000000000000000000"),
    queryFn: async () => (await ensClient()?.getEnsName({ address: address! })) ?? null,
    enabled: !!address,
    staleTime: 10 * 60_000,
    retry: false,
  });
  return query.data ?? null;
}

function useEnsAvatarQuery(name: string | null): string | null {
  const query = useQuery({
    queryKey: queryKeys.ensAvatar(name ?? ""),
    queryFn: async () =>
      (await ensClient()?.getEnsAvatar({ name: await normalize(name!) })) ?? null,
    enabled: !!name,
    staleTime: 60 * 60_000,
    retry: false,
  });
  return query.data ?? null;
}

const none = (): null => null;

/**
 * An account's ENS name; null when none. Without a mainnet RPC (fixed when the app is built) the
 * hook is nothing at all: every name on a board of 50 players is a query observer otherwise, on a
 * phone's every render, for a lookup that cannot happen.
 */
export const useEnsName: (address: Address | undefined) => string | null = mainnetUrl
  ? useEnsNameQuery
  : none;

/** The avatar of an ENS name, as an image URL; null when none (or no ENS here). */
export const useEnsAvatar: (name: string | null) => string | null = mainnetUrl
  ? useEnsAvatarQuery
  : none;

export const looksLikeEnsName = (text: string): boolean =>
  /^[^\s.]+(\.[^\s.]+)+$/.test(text.trim());

/** Resolves an ENS name; null when unknown, throws when ENS is not available here. */
export async function resolveEnsName(name: string): Promise<Address | null> {
  const ens = ensClient();
  if (!ens)
    throw new Error(
      "ENS names need a mainnet connection, which this app doesn't have. Use an address.",
    );
  return ens.getEnsAddress({ name: await normalize(name.trim()) });
}

/**
 * Each account once, in first-seen order. A game lists its creator among its players and invitees,
 * and one account may come checksummed and lower-case; useQueries warns on every render about a
 * repeated key (hundreds of warnings a game, one per countdown tick).
 */
export function distinctAddresses(addresses: readonly Address[]): Address[] {
  const seen = new Set<string>();
  return addresses.filter((a) => {
    const k = a.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** ENS names of several accounts at once, keyed by lower-case address (absent when none). */
export function useEnsNames(addresses: readonly Address[]): Map<string, string> {
  const unique = distinctAddresses(addresses);
  const results = useQueries({
    queries: unique.map((address) => ({
      queryKey: queryKeys.ensName(address),
      queryFn: async () => (await ensClient()?.getEnsName({ address })) ?? null,
      enabled: ensAvailable(),
      staleTime: 10 * 60_000,
      retry: false,
    })),
  });
  const names = new Map<string, string>();
  results.forEach((r, i) => {
    if (r.data) names.set(unique[i].toLowerCase(), r.data);
  });
  return names;
}
