// The one write path: a contract write is simulated (a revert is caught before anything is signed
// and decoded to a sentence), its gas limit set by us with headroom, then signed and sent by a
// signer, and awaited. The signer is the player's wallet (which asks for a confirmation) or a
// session key this browser holds (which does not); everything else is the same. The React side
// (useTx, tx.ts) and the key's payout (sessionPayout.ts) both write through here; nothing here
// imports either.
import {
  createWalletClient,
  custom,
  encodeFunctionData,
  erc20Abi,
  type Abi,
  type Account,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type LocalAccount,
  type TransactionReceipt,
} from "viem";
import {
  estimateFeesPerGas,
  estimateGas,
  getBalance,
  simulateContract,
  waitForTransactionReceipt,
  writeContract,
} from "viem/actions";
import {
  getConnectorClient,
  sendCalls,
  waitForCallsStatus,
  waitForTransactionReceipt as waitForWalletReceipt,
} from "wagmi/actions";
import { gasLimitFor } from "@dicehall/core/contract/gas.ts";
import { keyNeedsRefuel } from "@dicehall/core/contract/session.ts";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { LOCAL_CHAIN_ID } from "./chains.ts";
import { describeError } from "./errors.ts";
import type { Hall } from "./hall.ts";
import type { AppConfig } from "./wagmi.ts";

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

/** Who signs a write: the connected wallet (one confirmation) or a session key (none). */
export type Signer = { by: "wallet"; config: AppConfig } | { by: "key"; key: LocalAccount };

/** A wallet client for `key` over the hall's connection (the app's RPC, never the wallet's). */
export function keyClient(hall: Pick<Hall, "client" | "chain">, key: LocalAccount) {
  return createWalletClient({
    account: key,
    chain: hall.chain,
    transport: custom({ request: (args) => hall.client.request(args as never) }),
  });
}

/** The client that signs for `signer`, and the account it signs as. */
async function signingClient(hall: Hall, signer: Signer) {
  if (signer.by === "key") return keyClient(hall, signer.key);
  return getConnectorClient(signer.config, { chainId: hall.chainId as never });
}

/**
 * Simulates, sends with `signer` and waits for the block; the receipt, or a thrown error that
 * errors.ts explains (a revert in the simulation, a refusal in the wallet, a failed block).
 */
export async function sendWrite(
  hall: Hall,
  signer: Signer,
  request: WriteRequest,
  setPhase: (phase: TxPhase) => void = () => {},
): Promise<TransactionReceipt> {
  setPhase("simulating");
  const client = await signingClient(hall, signer);
  const account = client.account as Account;
  // A local node mines only on demand, so its latest block can be minutes old; its pending block
  // carries the current time, which time-bound calls (claim a timeout, cancel a lobby after its
  // window, roll again after the entropy timeout) are judged by.
  const blockTag = hall.chainId === LOCAL_CHAIN_ID ? "pending" : undefined;
  const { request: simulated } = await simulateContract(hall.client, {
    ...request,
    account,
    blockTag,
  } as never);
  // The gas limit is ours, with headroom, not the wallet's: some wallets (and a local node signing
  // for its own accounts) send the bare estimate, which a block later can be short.
  const estimate = await estimateGas(hall.client, {
    account,
    blockTag,
    to: request.address,
    data: encodeFunctionData(request as never),
    value: request.value,
  } as never);
  const gas = gasLimitFor(request.functionName, estimate);
  setPhase(signer.by);
  if (signer.by === "key" && request.functionName !== "refuelKey") {
    await refuelIfShort(hall, signer.key, gas, request.value ?? 0n);
  }
  const hash = await writeContract(
    client as never,
    {
      ...(simulated as object),
      account,
      chain: hall.chain,
      gas,
    } as never,
  );
  setPhase("confirming");
  const receipt = await waitForTransactionReceipt(hall.client, { hash, timeout: 180_000 });
  if (receipt.status === "reverted") {
    throw new Error(
      signer.by === "key"
        ? "The session key's transaction failed on chain. Nothing changed; the table shows the current state."
        : "The transaction failed on chain. Nothing changed; the table shows the current state.",
    );
  }
  return receipt;
}

/** The refusals of a refuel that leave the move to go on as it is: the key holds its float already, or the slot is empty. */
const REFUEL_REFUSALS = new Set(["KeyFull", "SessionAllowanceExceeded"]);

/**
 * A session key holds only a float (issue 43): before a move whose whole gas limit it cannot pay
 * at today's max fee per gas (a node takes no transaction its sender cannot pay for), it first
 * tops itself up from its session's slot in the hall (refuelKey, no wallet) and waits for that
 * block. A refusal (the key is full, or the slot is empty) is no error: the move is sent as it is,
 * and a move the key cannot pay fails as it would have.
 */
export async function refuelIfShort(
  hall: Hall,
  key: LocalAccount,
  gasLimit: bigint,
  value: bigint,
): Promise<boolean> {
  const [balance, fees] = await Promise.all([
    getBalance(hall.client, { address: key.address }),
    estimateFeesPerGas(hall.client, { chain: hall.chain }),
  ]);
  const maxFeePerGas = fees.maxFeePerGas ?? fees.gasPrice ?? 0n;
  if (!keyNeedsRefuel({ balance, gasLimit, maxFeePerGas, value })) return false;
  try {
    await sendWrite(hall, { by: "key", key }, hallCall(hall.address, "refuelKey", []));
    return true;
  } catch (err) {
    const name = describeError(err).errorName;
    if (name && REFUEL_REFUSALS.has(name)) return false;
    throw err;
  }
}

/**
 * EIP-5792: sends `requests` as one atomic batch in one wallet confirmation and waits for it;
 * resolves to the last call's receipt (the one whose events the caller reads). A batch that fails
 * fails whole: nothing changed. Only a wallet batches (batch.ts says whether it can).
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
  return waitForWalletReceipt(config, {
    hash: last.transactionHash,
    chainId: chainId as never,
  });
}
