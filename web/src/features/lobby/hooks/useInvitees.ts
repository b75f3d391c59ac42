import { useQuery } from "@tanstack/react-query";
import type { Address } from "viem";
import { ensAvailable, looksLikeEnsName, resolveEnsName } from "@/chain/ens.ts";
import { asAddress } from "@dicehall/core/game/format.ts";
import { sameAddress } from "@dicehall/core/game/gameState.ts";
import { queryKeys } from "@/data/queryKeys.ts";

export interface InviteeLine {
  text: string;
  address: Address | null;
  problem: string | null;
}

export function splitInvitees(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Each typed invitee as an address (ENS names resolved on mainnet when available) or a problem. */
export function useInvitees(text: string, me: Address | undefined) {
  const entries = splitInvitees(text);
  const names = entries.filter((e) => !asAddress(e) && looksLikeEnsName(e));
  const resolved = useQuery({
    queryKey: queryKeys.ensAddresses(names),
    queryFn: async () => {
      const out: Record<string, Address | null | string> = {};
      for (const name of names) {
        try {
          out[name] = await resolveEnsName(name);
        } catch (error) {
          out[name] = error instanceof Error ? error.message : "Could not resolve.";
        }
      }
      return out;
    },
    enabled: names.length > 0 && ensAvailable(),
    staleTime: 5 * 60_000,
  });

  const seen: Address[] = [];
  const lines: InviteeLine[] = entries.map((entry) => {
    let address = asAddress(entry);
    let problem: string | null = null;
    if (!address) {
      if (!looksLikeEnsName(entry)) problem = "Not an address or a name.";
      else if (!ensAvailable())
        problem = "ENS names need a mainnet connection this app doesn't have; paste the address.";
      else {
        const r = resolved.data?.[entry];
        if (r === undefined) problem = resolved.isFetching ? "Looking up…" : "Not resolved yet.";
        else if (r === null) problem = "This name has no address.";
        else if (typeof r === "string" && !r.startsWith("0x")) problem = r;
        else address = r as Address;
      }
    }
    if (address) {
      if (sameAddress(address, me)) problem = "That's you; you already hold seat 1.";
      else if (seen.some((s) => sameAddress(s, address))) problem = "Listed twice.";
      seen.push(address);
    }
    return { text: entry, address, problem };
  });
  return { lines, pending: resolved.isFetching };
}
