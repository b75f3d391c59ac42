import { useCallback, useRef, useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  encodeFunctionData,
  erc20Abi,
  type Abi,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type LocalAccount,
  type TransactionReceipt,
} from "viem";
import { useConfig } from "wagmi";
import {
  estimateGas,
  simulateContract,
  waitForTransactionReceipt,
  writeContract,
} from "wagmi/actions";
import { LOCAL_CHAIN_ID } from "./chains.ts";
import { describeError, type ErrorContext, type PlayerError } from "./errors.ts";
import { gasLimitFor } from "@dicehall/core/contract/gas.ts";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { useHall } from "./hall.ts";
import { sendBatch } from "./batch.ts";
import { sendWithKey } from "./keyTx.ts";
import { queryKeys } from "@/data/queryKeys.ts";

/** A contract write, described before it is simulated and sent. */
export interface WriteRequest {
  address: Address;
  abi: Abi;
  functionName: string;
  args: readonly unknown[];
  value?: bigint;
}

type HallWriteName = ContractFunctionName<typeof diceHallAbi, "nonpayable" | "payable">;

/** A typed DiceHall call: names and argument types come from the built ABI. */
export function hallCall<F extends HallWriteName>(
  address: Address,
  functionName: F,
  args: ContractFunctionArgs<typeof diceHallAbi, "nonpayable" | "payable", F>,
  value?: bigint,
): WriteRequest {
  return {
    address,
    abi: diceHallAbi as Abi,
    functionName,
    args: args as readonly unknown[],
    value,
  };
}

export function approveCall(token: Address, spender: Address, amount: bigint): WriteRequest {
  return { address: token, abi: erc20Abi as Abi, functionName: "approve", args: [spender, amount] };
}

/** Where a write is: checking it against the chain, in the wallet, waiting for a block. */
export type TxPhase = "idle" | "simulating" | "wallet" | "key" | "confirming" | "done" | "error";

export const PHASE_TEXT: Record<TxPhase, string> = {
  idle: "",
  simulating: "Checking with the hall…",
  wallet: "Confirm in your wallet…",
  key: "Sending with your session key…",
  confirming: "Waiting for the block…",
  done: "Done.",
  error: "",
};

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
      if (key) return sendWithKey(hall, key, request, setPhase);
      if (batch) return sendBatch(config, hall.chainId, batch, setPhase);
      const chainId = hall.chainId as never;
      setPhase("simulating");
      // A local node mines only on demand, so its latest block can be minutes old; its pending
      // block carries the current time, which time-bound calls (claim a timeout, cancel a lobby
      // after its window, roll again after the entropy timeout) are judged by.
      const blockTag = hall.chainId === LOCAL_CHAIN_ID ? "pending" : undefined;
      const simulation = await simulateContract(config, { ...request, chainId, blockTag } as never);
      // The gas limit is ours, with headroom, not the wallet's: some wallets (and a local node
      // signing for its own accounts) send the bare estimate, which a block later can be short.
      const estimate = await estimateGas(config, {
        chainId,
        blockTag,
        to: request.address,
        data: encodeFunctionData(request as never),
        value: request.value,
      } as never);
      const gas = gasLimitFor(request.functionName, estimate);
      setPhase("wallet");
      const hash = await writeContract(config, {
        ...(simulation as { request: object }).request,
        gas,
      } as never);
      setPhase("confirming");
      const receipt = await waitForTransactionReceipt(config, { hash, chainId, timeout: 180_000 });
      if (receipt.status === "reverted") {
        throw new Error(
          "The transaction failed on chain. Nothing changed; the table shows the current state.",
        );
      }
      return receipt;
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
