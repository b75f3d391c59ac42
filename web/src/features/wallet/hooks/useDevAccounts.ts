import { useQuery } from "@tanstack/react-query";
import type { Address } from "viem";
import { useConnectors, type Connector } from "wagmi";
import { DEV_ACCOUNTS_ID, type DevAccountsProperties } from "@/chain/devAccounts.ts";
import { queryKeys } from "@/data/queryKeys.ts";

export type DevConnector = Connector & DevAccountsProperties;

export function useDevConnector(): DevConnector | undefined {
  const connectors = useConnectors();
  return connectors.find((c) => c.id === DEV_ACCOUNTS_ID) as DevConnector | undefined;
}

/** The local node's unlocked accounts; empty (not an error) when no node answers. */
export function useDevAccounts(enabled: boolean) {
  const connector = useDevConnector();
  return useQuery({
    queryKey: queryKeys.devAccounts(),
    queryFn: async (): Promise<Address[]> => {
      try {
        return await connector!.listAccounts();
      } catch {
        return [];
      }
    },
    enabled: enabled && !!connector,
    staleTime: 60_000,
  });
}
