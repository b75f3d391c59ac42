// useTx: the React side of a write (its phase, its error in words, the hall's queries refreshed
// after). The write itself, wallet or session key, goes through write.ts.
import { useCallback, useRef, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { LocalAccount, TransactionReceipt } from "viem";
import { useConfig } from "wagmi";
import { describeError, type ErrorContext, type PlayerError } from "./errors.ts";
import { useHall } from "./hall.ts";
import { sendBatch, sendWrite, type TxPhase, type WriteRequest } from "./write.ts";
import { queryKeys } from "@/data/queryKeys.ts";

export {
  approveCall,
  hallCall,
  PHASE_TEXT,
  type Signer,
  type TxPhase,
  type WriteRequest,
} from "./write.ts";

export interface Tx {
  /**
   * Simulates, sends and waits; resolves to the receipt, or null when it failed (see `error`).
   * With `key` (a session key), the key signs and sends it: no wallet opens.
   */
  run: (request: WriteRequest, key?: LocalAccount | null) => Promise<TransactionReceipt | null>;
  /** Several writes in one confirmation (EIP-5792, see batch.ts); the last one's receipt. */
  runBatch: (requests: readonly WriteRequest[]) => Promise<TransactionReceipt | null>;
  phase: TxPhase;
  busy: boolean;
  error: PlayerError | null;
  reset: () => void;
}

/**
 * Every write goes through here: simulated first (a revert is caught before the wallet opens and
 * decoded to a sentence), then sent, then awaited; the hall's queries are refreshed after.
 */
export function useTx(errorContext: ErrorContext = {}): Tx {
  const config = useConfig();
  const hall = useHall();
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<TxPhase>("idle");
  const context = useRef(errorContext);
  context.current = errorContext;

  const mutation = useMutation({
    mutationFn: async ({
      request,
      key,
      batch,
    }: {
      request: WriteRequest;
      key?: LocalAccount | null;
      batch?: readonly WriteRequest[];
    }): Promise<TransactionReceipt> => {
      if (!hall) throw new Error("There is no hall on this network.");
      if (batch) return sendBatch(config, hall.chainId, batch, setPhase);
      return sendWrite(
        hall,
        key ? { by: "key", key } : { by: "wallet", config },
        request,
        setPhase,
      );
    },
    onSuccess: () => setPhase("done"),
    onError: () => setPhase("error"),
    onSettled: () => {
      if (!hall) return;
      void queryClient.invalidateQueries({ queryKey: queryKeys.hall(hall.scope) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.balancesOnChain(hall.chainId) });
    },
  });

  const { mutateAsync, reset: resetMutation } = mutation;
  const run = useCallback(
    (request: WriteRequest, key?: LocalAccount | null) =>
      mutateAsync({ request, key }).catch(() => null),
    [mutateAsync],
  );
  const runBatch = useCallback(
    (requests: readonly WriteRequest[]) =>
      mutateAsync({ request: requests[requests.length - 1], batch: requests }).catch(() => null),
    [mutateAsync],
  );
  const reset = useCallback(() => {
    resetMutation();
    setPhase("idle");
  }, [resetMutation]);

  return {
    run,
    runBatch,
    phase,
    busy: mutation.isPending,
    error: mutation.error ? describeError(mutation.error, context.current) : null,
    reset,
  };
}
