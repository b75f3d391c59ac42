// The glue between `hardhat dicehall ...` and scripts/tasks/ops.ts: connect to --network, find
// DiceHall (--address, else this chain's deployment), and sign with the network's first account
// (the deployer key from the keystore on real networks).
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import type { NewTaskActionFunction } from "hardhat/types/tasks";
import { errorResult } from "hardhat/utils/result";
import {
  BaseError,
  ContractFunctionRevertedError,
  type PublicClient,
  type WalletClient,
} from "viem";

import { loadDeployment } from "../lib/deployments.ts";
import * as ops from "./ops.ts";

interface Common {
  address?: string;
}

async function connect(hre: HardhatRuntimeEnvironment, args: Common): Promise<ops.Ops> {
  const connection = await hre.network.create();
  const publicClient = (await connection.viem.getPublicClient()) as unknown as PublicClient;
  const [walletClient] = (await connection.viem.getWalletClients()) as unknown as WalletClient[];
  if (walletClient === undefined) {
    throw new Error(
      `network ${connection.networkName} has no account: set its deployer key with ` +
        "`npx hardhat keystore set <NAME>_DEPLOYER_KEY`",
    );
  }
  let diceHall;
  let fromBlock = 0n;
  if (args.address !== undefined) {
    diceHall = ops.parseAddress(args.address, "--address");
  } else {
    const deployment = loadDeployment(await publicClient.getChainId());
    diceHall = deployment.diceHall;
    fromBlock = BigInt(deployment.deploymentBlock);
  }
  return { publicClient, walletClient, diceHall, fromBlock, log: (line) => console.log(line) };
}

type Action<A> = NewTaskActionFunction<A & Common>;

/** What went wrong, in one line: the contract's custom error when it reverted. */
export function describeError(err: unknown): string {
  if (err instanceof BaseError) {
    const revert = err.walk((e) => e instanceof ContractFunctionRevertedError);
    if (revert instanceof ContractFunctionRevertedError && revert.data !== undefined) {
      const args = (revert.data.args ?? []).map((a) => String(a)).join(", ");
      return `the contract refused: ${revert.data.errorName}(${args})`;
    }
    return err.shortMessage;
  }
  return err instanceof Error ? err.message : String(err);
}

/**
 * A failure is one line on stderr and exit code 1 (a failed Result), not a stack trace: every
 * expected failure here is the operator's to fix (an argument, a key, a wrong network).
 */
function command<A>(name: string, body: Action<A>): Action<A> {
  return async (args, hre) => {
    try {
      return await body(args, hre);
    } catch (err) {
      const message = describeError(err);
      console.error(`dicehall ${name}: ${message}`);
      return errorResult(message);
    }
  };
}

export const status = command<object>("status", async (args, hre) => {
  const s = await ops.readStatus(await connect(hre, args));
  console.log(ops.formatStatus(s));
  return s;
});

export const token = command<{ token: string; min?: string; max?: string; forbid: boolean }>(
  "token",
  async (args, hre) => ops.setToken(await connect(hre, args), args),
);

export const fee = command<{ bps: number }>("fee", async (args, hre) =>
  ops.setFee(await connect(hre, args), args.bps),
);

export const bounds = command<{
  joinMin?: string;
  joinMax?: string;
  moveMin?: string;
  moveMax?: string;
}>("bounds", async (args, hre) => ops.setBounds(await connect(hre, args), args));

export const entropy = command<{
  timeout?: string;
  callbackGas?: string;
  provider?: string;
  callOffWindow?: string;
}>("entropy", async (args, hre) => ops.setEntropySettings(await connect(hre, args), args));

export const pause = command<object>("pause", async (args, hre) =>
  ops.setPaused(await connect(hre, args), true),
);

export const unpause = command<object>("unpause", async (args, hre) =>
  ops.setPaused(await connect(hre, args), false),
);

export const withdrawTreasury = command<{ token: string; to?: string; amount?: string }>(
  "withdraw-treasury",
  async (args, hre) => ops.withdrawTreasury(await connect(hre, args), args),
);

export const transferOwnership = command<{ to?: string }>("transfer-ownership", async (args, hre) =>
  ops.transferOwnership(await connect(hre, args), args.to),
);

export const acceptOwnership = command<object>("accept-ownership", async (args, hre) =>
  ops.acceptOwnership(await connect(hre, args)),
);
