import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { artifacts } from "hardhat";
import { createHardhatRuntimeEnvironment } from "hardhat/hre";
import { isResult } from "hardhat/utils/result";
import type { HardhatRuntimeEnvironment } from "hardhat/types/hre";
import {
  getAddress,
  parseEther,
  zeroAddress,
  type Address,
  type Hex,
  type PublicClient,
} from "viem";

import hardhatConfig from "../hardhat.config.ts";
import { diceHallAbi, testTokenAbi } from "@dicehall/core/generated/abis.ts";
import { clients } from "../scripts/lib/chain.ts";
import { startDevStack, type DevStack } from "../scripts/lib/devStack.ts";
import {
  NATIVE,
  advanceTime,
  claimTimeout,
  joinGame,
  openGame,
  revealNow,
  roll,
  table,
} from "../scripts/lib/table.ts";
import { diceHallTasks } from "../scripts/tasks/index.ts";
import type { HallStatus } from "../scripts/tasks/ops.ts";
import * as ops from "../scripts/tasks/ops.ts";

// The operator tasks, run through Hardhat's task runner as `npx hardhat dicehall ... --network
// localhost` would run them, against a local stack (no keeper, no web app) on a free port.

describe("operator tasks", { timeout: 60_000 }, () => {
  let stack: DevStack;
  let hre: HardhatRuntimeEnvironment;
  let publicClient: PublicClient;
  let owner: Address;
  let stranger: Address;

  /**
   * Runs `hardhat dicehall <command>`, keeping its report out of the test output. A failed
   * command (one line on stderr, exit code 1 on the CLI) becomes a rejection.
   */
  async function run<T = unknown>(command: string, args: Record<string, unknown> = {}): Promise<T> {
    const [print, complain] = [console.log, console.error];
    console.log = console.error = () => {};
    try {
      const result: unknown = await hre.tasks
        .getTask(["dicehall", command])
        .run({ address: stack.addresses.diceHall, ...args });
      if (isResult(result) && !result.success) throw new Error(String(result.error));
      return result as T;
    } finally {
      [console.log, console.error] = [print, complain];
    }
  }
  const status = () => run<HallStatus>("status");
  const read = <T>(functionName: string, args: readonly unknown[] = []) =>
    publicClient.readContract({
      address: stack.addresses.diceHall,
      abi: diceHallAbi,
      functionName: functionName as never,
      args: args as never,
    }) as Promise<T>;

  before(async () => {
    stack = await startDevStack({
      rpcPort: 0,
      web: false,
      keeper: false,
      deploymentId: `devstack-ops-${process.pid}`,
      deploymentsFile: null,
    });
    // The project's config with the tasks registered (once the config lists them, as is) and
    // `localhost` pointing at this stack.
    const registered = hardhatConfig.tasks?.some((t) => t.id[0] === "dicehall") ?? false;
    hre = await createHardhatRuntimeEnvironment(
      {
        ...hardhatConfig,
        tasks: registered
          ? hardhatConfig.tasks
          : [...(hardhatConfig.tasks ?? []), ...diceHallTasks],
        networks: {
          ...hardhatConfig.networks,
          localhost: { type: "http", chainType: "l1", url: stack.rpcUrl },
        },
      },
      { network: "localhost" },
    );
    publicClient = clients(stack.rpcUrl).publicClient as unknown as PublicClient;
    [owner, stranger] = [stack.accounts[0], stack.accounts[7]];
  });

  after(async () => {
    await stack?.stop();
  });

  it("status shows what the local deployment configured", async () => {
    const s = await status();
    assert.equal(s.owner, owner);
    assert.equal(s.pendingOwner, zeroAddress);
    assert.equal(s.paused, false);
    assert.equal(s.houseFeeBps, 250);
    assert.deepEqual(s.joinWindow, { min: 30, max: 604800 });
    assert.deepEqual(s.moveTimeout, { min: 15, max: 604800 });
    assert.equal(s.entropy, stack.addresses.mockEntropy);
    assert.equal(s.entropyProvider, getAddress(stack.addresses.entropyProvider));
    assert.equal(s.entropyDefaultProvider, s.entropyProvider);
    assert.equal(s.entropyTimeout, 1800);
    assert.equal(s.callbackGasLimit, 100_000);
    const byToken = new Map(s.tokens.map((t) => [t.token, t]));
    assert.deepEqual(
      { ...byToken.get(NATIVE) },
      {
        token: NATIVE,
        symbol: "ETH",
        decimals: 18,
        allowed: true,
        minBet: 10n ** 15n,
        maxBet: 10n ** 19n,
        treasury: 0n,
      },
    );
    const tusd = byToken.get(stack.addresses.testToken)!;
    assert.equal(tusd.symbol, "TUSD");
    assert.deepEqual([tusd.allowed, tusd.minBet, tusd.maxBet], [true, 1_000_000n, 1_000_000_000n]);
    assert.match(ops.formatStatus(s), /house fee\s+250 bps \(2\.5%\)/);
  });

  it("token allows a new ERC-20 with limits in its own units, and forbids it", async () => {
    const artifact = await artifacts.readArtifact("TestToken");
    const { publicClient: pc, wallet } = clients(stack.rpcUrl);
    const hash = await wallet(owner).deployContract({
      abi: testTokenAbi,
      bytecode: artifact.bytecode as Hex,
    });
    const token = getAddress((await pc.waitForTransactionReceipt({ hash })).contractAddress!);

    await run("token", { token, min: "2", max: "20.5", forbid: false });
    let listed = (await status()).tokens.find((t) => t.token === token);
    assert.deepEqual(
      [listed?.allowed, listed?.minBet, listed?.maxBet],
      [true, 2_000_000n, 20_500_000n],
    );

    await run("token", { token, forbid: true });
    listed = (await status()).tokens.find((t) => t.token === token);
    assert.equal(listed?.allowed, false);

    await assert.rejects(run("token", { token, min: "5", max: "1", forbid: false }), /min <= max/);
    await assert.rejects(
      run("token", { token: "0x1234", min: "1", max: "2", forbid: false }),
      /not a token address/,
    );
  });

  it("fee, bounds and entropy settings change what the views say", async () => {
    await run("fee", { bps: 400 });
    assert.equal(await read<number>("houseFeeBps"), 400);
    await assert.rejects(run("fee", { bps: 1001 }), /0\.\.1000/);

    await run("bounds", { joinMin: "2m", joinMax: "1d", moveMin: "20s", moveMax: "12h" });
    assert.deepEqual(await read("joinWindowBounds"), [120, 86400]);
    assert.deepEqual(await read("moveTimeoutBounds"), [20, 43200]);
    await assert.rejects(run("bounds", { joinMin: "60" }), /give both/);

    await run("entropy", { timeout: "45m", callbackGas: "150000" });
    assert.equal(await read<number>("entropyTimeout"), 2700);
    assert.equal(await read<number>("callbackGasLimit"), 150_000);
    // Not Entropy's default provider: the task passes the contract's refusal on.
    await assert.rejects(run("entropy", { provider: stranger }), /NotDefaultProvider/);
    await run("entropy", { callOffWindow: "12h" });
    assert.equal(await read<number>("callOffWindow"), 12 * 3600);
    await assert.rejects(run("entropy", { callOffWindow: "5h" }), /InvalidSetting/);
    await run("entropy", { provider: stack.addresses.entropyProvider });
    assert.equal(
      await read<Address>("entropyProvider"),
      getAddress(stack.addresses.entropyProvider),
    );
  });

  it("pause stops new lobbies, unpause lets them in again", async () => {
    const hall = table(stack.rpcUrl, stack.addresses.diceHall);
    const lobby = {
      token: NATIVE,
      bet: parseEther("0.01"),
      seats: 2,
      ruleSet: 0,
      joinWindow: 600,
      moveTimeout: 600,
    } as const;
    await run("pause");
    assert.equal((await status()).paused, true);
    await assert.rejects(openGame(hall, stack.accounts[1], lobby), /EnforcedPause/);
    await run("unpause");
    assert.equal(await read<boolean>("paused"), false);
    await openGame(hall, stack.accounts[1], lobby);
  });

  it("withdraw-treasury sends the house fees of a finished game", async () => {
    // A two-seat game that ends at once: the first player walks away and is timed out.
    const hall = table(stack.rpcUrl, stack.addresses.diceHall, stack.addresses.mockEntropy);
    const bet = parseEther("1");
    const [alice, bob] = [stack.accounts[2], stack.accounts[3]];
    const gameId = await openGame(hall, alice, {
      token: NATIVE,
      bet,
      seats: 2,
      ruleSet: 1,
      joinWindow: 600,
      moveTimeout: 60,
    });
    await joinGame(hall, bob, gameId, NATIVE, bet);
    // The first roll draws the order; whoever moves first then walks away.
    const { sequence } = await roll(hall, alice, gameId, 0);
    await revealNow(hall, sequence);
    await advanceTime(hall, 61);
    await claimTimeout(hall, stranger, gameId);
    const fee = (2n * bet * 400n) / 10_000n;
    assert.equal(await read<bigint>("treasury", [NATIVE]), fee);

    const payee = stack.accounts[12];
    const before = await publicClient.getBalance({ address: payee });
    await run("withdraw-treasury", { token: "native", to: payee, amount: "0.03" });
    assert.equal(await publicClient.getBalance({ address: payee }), before + parseEther("0.03"));
    await run("withdraw-treasury", { token: "native", to: payee });
    assert.equal(await publicClient.getBalance({ address: payee }), before + fee);
    assert.equal(await read<bigint>("treasury", [NATIVE]), 0n);
    await assert.rejects(run("withdraw-treasury", { token: "native", to: payee }), /holds no ETH/);
  });

  it("transfer-ownership names a pending owner who takes over on accepting", async () => {
    const heir = stack.accounts[5];
    await run("transfer-ownership", { to: heir });
    let s = await status();
    assert.equal(s.owner, owner);
    assert.equal(s.pendingOwner, heir);
    assert.match(ops.formatStatus(s), /must call acceptOwnership/);

    // The tasks sign with the network's first account; the heir accepts with its own key.
    const { wallet } = clients(stack.rpcUrl);
    await ops.acceptOwnership({
      publicClient,
      walletClient: wallet(heir),
      diceHall: stack.addresses.diceHall,
      fromBlock: 0n,
      log: () => {},
    });
    s = await status();
    assert.equal(s.owner, heir);
    // The old owner is now refused, with the contract's own error.
    await assert.rejects(
      run("fee", { bps: 100 }),
      new RegExp(`the contract refused: OwnableUnauthorizedAccount\\(${owner}\\)`),
    );
  });
});
