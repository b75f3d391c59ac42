// EIP-5792: a wallet that runs several calls in one confirmation (wallet_sendCalls, atomically).
// An ERC-20 bet then needs one confirmation, not two: the approval and the create or join go
// together. Wallets without it (and the local node's accounts) keep the two steps. The batch itself
// is sent by write.ts's sendBatch.
import { getCapabilities } from "wagmi/actions";
import { useQuery } from "@tanstack/react-query";
import { useConfig, useConnection } from "wagmi";
import { useHall } from "./hall.ts";
import type { AppConfig } from "./wagmi.ts";

/** Whether the connected wallet runs atomic batches on `chainId`; false when it cannot say. */
export async function walletBatches(config: AppConfig, chainId: number): Promise<boolean> {
  try {
    const capabilities = await getCapabilities(config, { chainId } as never);
    const status = (capabilities as { atomic?: { status?: string } } | undefined)?.atomic?.status;
    return status === "supported" || status === "ready";
  } catch {
    return false;
  }
}

/** Whether the connected wallet batches on the hall's chain, for the forms' words. */
export function useWalletBatches(): boolean {
  const config = useConfig();
  const hall = useHall();
  const { address, connector } = useConnection();
  const query = useQuery({
    queryKey: ["walletBatches", hall?.chainId, address, connector?.uid],
    queryFn: () => walletBatches(config, hall!.chainId),
    enabled: !!hall && !!address,
    staleTime: Infinity,
  });
  return query.data === true;
}
