import { describe, expect, it } from "vitest";
import {
  ContractFunctionExecutionError,
  ContractFunctionRevertedError,
  encodeErrorResult,
  HttpRequestError,
  InsufficientFundsError,
  InternalRpcError,
  InvalidInputRpcError,
  RpcRequestError,
  TransactionExecutionError,
  parseAbi,
  UserRejectedRequestError,
  type AbiParameter,
  type Hex,
} from "viem";
import { decodeRevert, describeError, REVERT_SENTENCES, revertSentence } from "./errors.ts";
import { diceHallAbi, testTokenAbi } from "@dicehall/core/generated/abis.ts";
import { ALICE, BOB, HALL } from "@dicehall/core/test/testLogs.ts";

type ErrorItem = { type: "error"; name: string; inputs: readonly AbiParameter[] };
const errors = ([...diceHallAbi, ...testTokenAbi] as readonly { type: string }[]).filter(
  (i): i is ErrorItem => i.type === "error",
);

function sample(param: AbiParameter): unknown {
  if (param.type === "address") return BOB;
  if (param.type === "bool") return true;
  if (param.type.startsWith("bytes")) return `0x${"00".repeat(Number(param.type.slice(5)) || 32)}`;
  if (param.type.startsWith("uint") || param.type.startsWith("int"))
    return param.type === "uint8" ? 3 : 7n;
  throw new Error(`no sample for ${param.type}`);
}

function revertData(name: string): Hex {
  const error = errors.find((e) => e.name === name)!;
  return encodeErrorResult({
    abi: [error],
    errorName: name,
    args: error.inputs.map(sample),
  } as never);
}

function simulationError(data: Hex) {
  const cause = new ContractFunctionRevertedError({ abi: diceHallAbi, data, functionName: "roll" });
  return new ContractFunctionExecutionError(cause, {
    abi: diceHallAbi,
    functionName: "roll",
    args: [1n, 0],
    contractAddress: HALL,
  });
}

describe("revert sentences", () => {
  it("has a sentence for every custom error the hall and its token can raise", () => {
    const missing = errors.map((e) => e.name).filter((name) => !(name in REVERT_SENTENCES));
    expect(missing).toEqual([]);
  });

  it.each(errors.map((e) => e.name))("decodes %s from revert data to its sentence", (name) => {
    const decoded = decodeRevert(revertData(name));
    expect(decoded?.errorName).toBe(name);
    const sentence = revertSentence(name, decoded!.args);
    expect(sentence).not.toMatch(/refused this move/);
    expect(sentence).toMatch(/[.!]$/);
  });

  it("says whose turn it is, in player words", () => {
    const data = encodeErrorResult({
      abi: diceHallAbi,
      errorName: "NotYourTurn",
      args: [1n, ALICE],
    });
    expect(describeError(simulationError(data))).toEqual({
      kind: "revert",
      errorName: "NotYourTurn",
      message: "It's not your turn — waiting for 0x7099…79C8.",
    });
    const named = describeError(simulationError(data), { name: () => "Alice" });
    expect(named.message).toBe("It's not your turn — waiting for Alice.");
  });

  it("speaks amounts and boxes through the context", () => {
    const bet = encodeErrorResult({
      abi: diceHallAbi,
      errorName: "BetOutOfRange",
      args: [5n, 10n, 20n],
    });
    const ctx = { amount: (v: bigint) => `${v} TUSD`, boxName: (b: number) => ["Ones", "Twos"][b] };
    expect(describeError(simulationError(bet), ctx).message).toBe(
      "A bet of 5 TUSD is not allowed: it must be between 10 TUSD and 20 TUSD.",
    );
    const filled = encodeErrorResult({ abi: diceHallAbi, errorName: "BoxFilled", args: [1] });
    expect(describeError(simulationError(filled), ctx).message).toBe("Twos is already filled.");
  });

  it("decodes OpenZeppelin errors even when the function's ABI lacks them", () => {
    const oz = parseAbi([
      "error EnforcedPause()",
      "error OwnableUnauthorizedAccount(address account)",
    ]);
    const data = encodeErrorResult({ abi: oz, errorName: "EnforcedPause" });
    const cause = new ContractFunctionRevertedError({ abi: [], data, functionName: "joinGame" });
    const wrapped = new ContractFunctionExecutionError(cause, {
      abi: [],
      functionName: "joinGame",
      contractAddress: HALL,
    });
    const described = describeError(wrapped);
    if (errors.some((e) => e.name === "EnforcedPause")) {
      expect(described.errorName).toBe("EnforcedPause");
      expect(described.message).toMatch(/paused/);
    } else {
      expect(described.kind).toBe("revert");
    }
    expect(revertSentence("OwnableUnauthorizedAccount", [ALICE])).toBe(
      "Only the hall's owner can do this.",
    );
  });

  it("falls back to a plain sentence for an unknown error name", () => {
    expect(revertSentence("SomethingNew", [])).toBe("The hall refused this move (SomethingNew).");
  });
});

describe("describeError", () => {
  it("treats a declined signature as nothing sent", () => {
    const error = new UserRejectedRequestError(new Error("User rejected the request."));
    expect(describeError(error)).toMatchObject({
      kind: "rejected",
      message: "You declined in your wallet. Nothing was sent.",
    });
    expect(describeError({ code: 4001, message: "denied" }).kind).toBe("rejected");
  });

  it("explains missing funds with the native coin's name", () => {
    const error = new InsufficientFundsError({ cause: undefined });
    expect(describeError(error, { nativeSymbol: "ETH" }).message).toMatch(/enough ETH/);
  });

  it("reads the local node's “Sender doesn't have enough funds” in words, raw or in a simulation", () => {
    const said =
      "Sender doesn't have enough funds to send tx. The max upfront cost is: 50000000000000000 and the sender's balance is: 10000000000000000.";
    const rpc = new InternalRpcError(
      new RpcRequestError({
        body: { method: "eth_estimateGas", params: [] },
        url: "http://127.0.0.1:8545",
        error: { code: -32603, message: said },
      }),
    );
    const expected =
      "Your wallet has 0.01 ETH, but this needs up to 0.05 ETH with its network fee. Nothing was sent.";
    expect(describeError(rpc, { nativeSymbol: "ETH" })).toEqual({
      kind: "funds",
      message: expected,
    });
    // As a simulation of joinGame hands it over: a "revert" whose reason is the node's sentence.
    const simulated = new ContractFunctionExecutionError(
      new ContractFunctionRevertedError({ abi: [], functionName: "joinGame", message: said }),
      { abi: [], functionName: "joinGame", contractAddress: HALL },
    );
    expect(describeError(simulated, { nativeSymbol: "ETH" }).message).toBe(expected);
    expect(describeError(simulated).message).not.toMatch(/refused|Sender/);
  });

  it("gives the node's own words when it refuses a transaction, not viem's name for the code", () => {
    // What the local node answered a score sent with too little gas (a -32000).
    const body = { method: "eth_sendTransaction", params: [] };
    const error = new TransactionExecutionError(
      new InvalidInputRpcError(
        new RpcRequestError({
          body,
          url: "http://127.0.0.1:8545",
          error: { code: -32000, message: "Transaction ran out of gas" },
        }),
      ),
      { account: undefined, chain: undefined } as never,
    );
    const described = describeError(error);
    expect(described.kind).toBe("refused");
    expect(described.message).toBe(
      "The network turned this down (it said: “Transaction ran out of gas”). Nothing changed; try again.",
    );
    expect(described.message).not.toMatch(/Missing or invalid parameters/);
  });

  it("explains an unreachable network", () => {
    const error = new HttpRequestError({ url: "http://127.0.0.1:8545", details: "fetch failed" });
    expect(describeError(error).kind).toBe("network");
  });
});
