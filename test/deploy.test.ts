import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { readDeploymentParameters } from "@nomicfoundation/hardhat-ignition/helpers";
import type { DeploymentParameters } from "@nomicfoundation/ignition-core";
import { getAddress, zeroAddress, type Address } from "viem";

import hardhatConfig from "../hardhat.config.ts";
import DiceHallModule from "../ignition/modules/DiceHall.ts";
import DiceHallHandoverModule from "../ignition/modules/DiceHallHandover.ts";
import LocalDiceHallModule, {
  FUNDED_ACCOUNTS,
  LOCAL_ENTROPY_PROVIDER,
  TUSD_PER_ACCOUNT,
} from "../ignition/modules/LocalDiceHall.ts";
import { ROOT } from "../scripts/lib/deployments.ts";
import { diceHallAbi, mockEntropyAbi, testTokenAbi } from "@dicehall/core/generated/abis.ts";

// The deployment modules on the in-process chain: each network's parameters file, read back
// through DiceHall's views, plus the local module and the ownership handover.

const connection = await network.create();
const { viem } = connection;
const publicClient = await viem.getPublicClient();
const [deployer, newOwner] = await viem.getWalletClients();

/** Pyth Entropy per network, from docs/DESIGN.md; the parameters files must say the same. */
const ENTROPY: Record<string, { chainId: number; entropy: Address }> = {
  baseSepolia: { chainId: 84532, entropy: "0x41c9e39574F40Ad34c79f1C99B66A45eFB830d4c" },
  base: { chainId: 8453, entropy: "0x6E7D74FA7d5c90FEF9F0512987605a6d546181Bb" },
  arbitrumSepolia: { chainId: 421614, entropy: "0x549Ebba8036Ab746611B4fFA1423eb0A4Df61440" },
  arbitrumOne: { chainId: 42161, entropy: "0x7698E925FfC29655576D0b361D75Af579e20AdAc" },
};
const MAINNETS = ["base", "arbitrumOne"];

async function parametersOf(networkName: string): Promise<Record<string, unknown>> {
  const file = await readDeploymentParameters(
    join(ROOT, `ignition/parameters/${networkName}.json`),
  );
  return file.DiceHall as Record<string, unknown>;
}

/** Pyth's real Entropy is not on this chain: a MockEntropy stands at another address. */
async function standInEntropy(): Promise<Address> {
  return getAddress((await viem.deployContract("MockEntropy", [LOCAL_ENTROPY_PROVIDER])).address);
}

/** Ignition's results, by the names the modules return (typed from the build's ABIs below). */
type Deployed = Record<string, { address: Address }>;

const readHall = <T>(address: Address, functionName: string, args: readonly unknown[] = []) =>
  publicClient.readContract({
    address,
    abi: diceHallAbi,
    functionName: functionName as never,
    args: args as never,
  }) as Promise<T>;

async function hallView(address: Address) {
  const [owner, fee, join, move, entropyTimeout, callbackGas, native, entropy] = await Promise.all([
    readHall<Address>(address, "owner"),
    readHall<number>(address, "houseFeeBps"),
    readHall<readonly [number, number]>(address, "joinWindowBounds"),
    readHall<readonly [number, number]>(address, "moveTimeoutBounds"),
    readHall<number>(address, "entropyTimeout"),
    readHall<number>(address, "callbackGasLimit"),
    readHall<{ allowed: boolean; minBet: bigint; maxBet: bigint }>(address, "tokenConfig", [
      zeroAddress,
    ]),
    readHall<Address>(address, "entropy"),
  ]);
  return { owner, fee, join, move, entropyTimeout, callbackGas, native, entropy };
}

async function deploy(
  module: Parameters<typeof connection.ignition.deploy>[0],
  parameters?: DeploymentParameters,
) {
  return (await connection.ignition.deploy(module, { parameters })) as unknown as Deployed;
}

describe("deployment parameters", () => {
  for (const [name, expected] of Object.entries(ENTROPY)) {
    it(`${name}.json names Pyth Entropy ${expected.entropy}, and hardhat.config.ts the chain`, async () => {
      const params = await parametersOf(name);
      assert.equal(getAddress(params.entropy as string), expected.entropy);
      const networks = hardhatConfig.networks as Record<string, { chainId?: number }>;
      assert.equal(networks[name]?.chainId, expected.chainId);
    });
  }

  for (const name of ["baseSepolia", "arbitrumSepolia"]) {
    it(`the DiceHall module configures a hall as ${name}.json says`, async () => {
      const params = await parametersOf(name);
      const entropy = await standInEntropy();
      const { diceHall } = await deploy(DiceHallModule, {
        DiceHall: { ...params, entropy },
      } as DeploymentParameters);
      const v = await hallView(diceHall.address);
      assert.equal(v.owner, getAddress(deployer.account.address));
      assert.equal(v.entropy, entropy);
      assert.equal(v.fee, params.houseFeeBps);
      assert.deepEqual(v.join, [params.joinWindowMin, params.joinWindowMax]);
      assert.deepEqual(v.move, [params.moveTimeoutMin, params.moveTimeoutMax]);
      assert.equal(v.entropyTimeout, params.entropyTimeout);
      assert.equal(v.callbackGas, params.callbackGasLimit);
      assert.deepEqual(v.native, {
        allowed: params.nativeAllowed,
        minBet: params.nativeMinBet,
        maxBet: params.nativeMaxBet,
      });
      assert.ok(v.native.allowed, "testnets allow the native coin");
      assert.ok(v.native.maxBet <= 10n ** 16n, "with small bets");
    });
  }

  for (const name of MAINNETS) {
    it(`${name}.json refuses to deploy until the operator chooses the house fee`, async () => {
      const params = await parametersOf(name);
      assert.equal(params.houseFeeBps, undefined);
      const entropy = await standInEntropy();
      const blockBefore = await publicClient.getBlockNumber();
      await assert.rejects(
        deploy(DiceHallModule, { DiceHall: { ...params, entropy } } as DeploymentParameters),
        /houseFeeBps/,
      );
      assert.equal(await publicClient.getBlockNumber(), blockBefore, "nothing was sent");

      const { diceHall } = await deploy(DiceHallModule, {
        DiceHall: { ...params, entropy, houseFeeBps: 200 },
      } as DeploymentParameters);
      const v = await hallView(diceHall.address);
      assert.equal(v.fee, 200);
      assert.equal(v.native.allowed, false, "mainnets allow no coin until the operator does");
    });
  }
});

describe("the local module", () => {
  it("deploys MockEntropy, Test USD and a hall that takes both, with short time bounds", async () => {
    const { diceHall, mockEntropy, testToken } = await deploy(LocalDiceHallModule);
    assert.equal(
      await publicClient.readContract({
        address: mockEntropy.address,
        abi: mockEntropyAbi,
        functionName: "getDefaultProvider",
      }),
      getAddress(LOCAL_ENTROPY_PROVIDER),
    );
    const v = await hallView(diceHall.address);
    assert.equal(v.entropy, getAddress(mockEntropy.address));
    assert.equal(
      await readHall(diceHall.address, "entropyProvider"),
      getAddress(LOCAL_ENTROPY_PROVIDER),
    );
    assert.equal(v.fee, 250);
    assert.deepEqual(v.join, [30, 7 * 24 * 3600]);
    assert.deepEqual(v.move, [15, 7 * 24 * 3600]);
    assert.equal(v.entropyTimeout, 1800);
    assert.deepEqual(v.native, { allowed: true, minBet: 10n ** 15n, maxBet: 10n * 10n ** 18n });
    assert.deepEqual(await readHall(diceHall.address, "tokenConfig", [testToken.address]), {
      allowed: true,
      minBet: 1_000_000n,
      maxBet: 1_000_000_000n,
    });
    const accounts = await viem.getWalletClients();
    const tusd = (account: Address) =>
      publicClient.readContract({
        address: testToken.address,
        abi: testTokenAbi,
        functionName: "balanceOf",
        args: [account],
      });
    for (const account of accounts.slice(0, FUNDED_ACCOUNTS)) {
      assert.equal(await tusd(account.account.address), TUSD_PER_ACCOUNT);
    }
    assert.equal(await tusd(accounts[FUNDED_ACCOUNTS].account.address), 0n);
  });
});

describe("the ownership handover", () => {
  const params = async () => ({
    ...(await parametersOf("baseSepolia")),
    entropy: await standInEntropy(),
  });

  it("names the new owner, who must accept before anything changes", async () => {
    const { diceHall } = await deploy(DiceHallHandoverModule, {
      DiceHall: await params(),
      DiceHallHandover: { newOwner: newOwner.account.address },
    } as DeploymentParameters);
    const hall = diceHall.address;
    assert.equal(await readHall(hall, "owner"), getAddress(deployer.account.address));
    assert.equal(await readHall(hall, "pendingOwner"), getAddress(newOwner.account.address));
    // The configuration calls ran before the handover, as the deployer.
    assert.equal(await readHall(hall, "houseFeeBps"), 250);

    await publicClient.waitForTransactionReceipt({
      hash: await newOwner.writeContract({
        address: hall,
        abi: diceHallAbi,
        functionName: "acceptOwnership",
      }),
    });
    assert.equal(await readHall(hall, "owner"), getAddress(newOwner.account.address));
    assert.equal(await readHall(hall, "pendingOwner"), zeroAddress);
  });

  it("stops before sending anything when the new owner is missing", async () => {
    const parameters = { DiceHall: await params() } as DeploymentParameters;
    const blockBefore = await publicClient.getBlockNumber();
    await assert.rejects(deploy(DiceHallHandoverModule, parameters), /newOwner/);
    assert.equal(await publicClient.getBlockNumber(), blockBefore);
  });
});
