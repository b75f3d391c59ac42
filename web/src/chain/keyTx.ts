// A write signed by a session key (a key this browser holds): simulated, sent and awaited over
// the hall's own connection, with no wallet in between. The same checks as a wallet write
// (useTx): a revert is caught by the simulation and explained before anything is sent, and the
// gas limit is ours, with headroom.
import {
  createWalletClient,
  custom,
  encodeFunctionData,
  type LocalAccount,
  type TransactionReceipt,
} from "viem";
import {
  estimateGas,
  simulateContract,
  waitForTransactionReceipt,
  writeContract,
} from "viem/actions";
import { gasLimitFor } from "@dicehall/core/contract/gas.ts";
import { LOCAL_CHAIN_ID } from "./chains.ts";
import type { Hall } from "./hall.ts";
import type { TxPhase, WriteRequest } from "./tx.ts";

/** A wallet client for `key` over the hall's connection (the app's RPC, never the wallet's). */
export function keyClient(hall: Hall, key: LocalAccount) {
  return createWalletClient({
    account: key,
    chain: hall.chain,
    transport: custom({ request: (args) => hall.client.request(args as never) }),
  });
}

export async function sendWithKey(
  hall: Hall,
  key: LocalAccount,
  request: WriteRequest,
  setPhase: (phase: TxPhase) => void = () => {},
): Promise<TransactionReceipt> {
  setPhase("simulating");
  const blockTag = hall.chainId === LOCAL_CHAIN_ID ? "pending" : undefined;
  const { request: simulated } = await simulateContract(hall.client, {
    ...request,
    account: key,
    blockTag,
  } as never);
  const estimate = await estimateGas(hall.client, {
    account: key,
    blockTag,
    to: request.address,
    data: encodeFunctionData(request as never),
    value: request.value,
  } as never);
  setPhase("key");
  const hash = await writeContract(keyClient(hall, key), {
    ...(simulated as object),
    account: key,
    chain: hall.chain,
    gas: gasLimitFor(request.functionName, estimate),
  } as never);
  setPhase("confirming");
  const receipt = await waitForTransactionReceipt(hall.client, { hash, timeout: 180_000 });
  if (receipt.status === "reverted") {
    throw new Error(
      "The session key's transaction failed on chain. Nothing changed; the table shows the current state.",
    );
  }
  return receipt;
}
