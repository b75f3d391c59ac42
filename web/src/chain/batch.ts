// EIP-5792: a wallet that runs several calls in one confirmation (wallet_sendCalls, atomically).
// An ERC-20 bet then needs one confirmation, not two: the approval and the create or join go
// together. Wallets without it (and the local node's accounts) keep the two steps.
import { encodeFunctionData, type TransactionReceipt } from "viem";
import {
  getCapabilities,
  sendCalls,
  waitForCallsStatus,
  waitForTransactionReceipt,
} from "wagmi/actions";
import { useQuery } from "@tanstack/react-query";
import { useConfig, useConnection } from "wagmi";
import { useHall } from "./hall.ts";
import type { AppConfig } from "./wagmi.ts";
import type { TxPhase, WriteRequest } from "./tx.ts";

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

/**
 * Sends `requests` as one atomic batch and waits for it; resolves to the last call's receipt (the
 * one whose events the caller reads). A batch that fails fails whole: nothing changed.
 */
export async function sendBatch(
  config: AppConfig,
  chainId: number,
  requests: readonly WriteRequest[],
  setPhase: (phase: TxPhase) => void,
): Promise<TransactionReceipt> {
  setPhase("wallet");
  const { id } = await sendCalls(config, {
    chainId,
    forceAtomic: true,
    calls: requests.map((r) => ({
      to: r.address,
      data: encodeFunctionData(r as never),
      value: r.value,
    })),
  } as never);
  setPhase("confirming");
  const result = await waitForCallsStatus(config, { id, timeout: 180_000 });
  const last = result.receipts?.at(-1);
  if (result.status !== "success" || !last) {
    throw new Error(
      "The wallet's batch failed on chain. Nothing changed; the table shows the current state.",
    );
  }
  return waitForTransactionReceipt(config, {
    hash: last.transactionHash,
    chainId: chainId as never,
  });
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
