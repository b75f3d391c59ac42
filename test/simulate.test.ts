import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";

import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { ROOT } from "../scripts/lib/deployments.ts";
import { startDevStack, type DevStack } from "../scripts/lib/devStack.ts";
import { chainNow, table } from "../scripts/lib/table.ts";

// `npm run simulate` against a dev stack of its own (no web app, no keeper: --reveal), as a user
// runs it next to the app: its games must not touch the app's ten dev accounts, and the chain's
// clock must stay with the wall clock, walk-away included; nor may it spend their coins, gas included.

function simulate(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/simulate.ts", ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

describe("npm run simulate", { timeout: 240_000 }, () => {
  let stack: DevStack | undefined;
  const scratch = mkdtempSync(join(tmpdir(), "dicehall-simulate-"));
  const deploymentsFile = join(scratch, "deployments.json");

  before(async () => {
    stack = await startDevStack({
      rpcPort: 0,
      web: false,
      keeper: false,
      deploymentId: `devstack-simulate-${process.pid}`,
      deploymentsFile,
    });
  });

  after(async () => {
    await stack?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("plays from its own accounts and leaves the chain's clock alone", async () => {
    const s = stack!;
    const t = table(s.rpcUrl, s.addresses.diceHall, s.addresses.mockEntropy);
    const wallStart = Date.now() / 1000;
    const chainStart = await chainNow(t);
    const fromBlock = await t.publicClient.getBlockNumber();
    const appAccounts = s.accounts.slice(0, 10);
    const balances = () =>
      Promise.all(appAccounts.map((address) => t.publicClient.getBalance({ address })));
    const balancesBefore = await balances();

    // The second game has a walk-away: without --warp it is waited out in real time.
    const { code, out } = await simulate([
      "--games",
      "2",
      "--reveal",
      "--timeout-every",
      "2",
      "--rpc-url",
      s.rpcUrl,
      "--deployments",
      deploymentsFile,
    ]);
    assert.equal(code, 0, out);
    assert.match(out, /Summary: 2 of 2 games finished/);
    assert.match(out, /forfeits +1/);
    assert.doesNotMatch(out, /--warp moves/);

    const wallElapsed = Date.now() / 1000 - wallStart;
    const chainElapsed = (await chainNow(t)) - chainStart;
    assert.ok(
      chainElapsed <= wallElapsed + 2,
      `the chain's clock moved ${chainElapsed} s in ${wallElapsed.toFixed(1)} s of real time`,
    );

    const events = { address: s.addresses.diceHall, abi: diceHallAbi, fromBlock } as const;
    const created = await t.publicClient.getContractEvents({ ...events, eventName: "GameCreated" });
    const joined = await t.publicClient.getContractEvents({ ...events, eventName: "PlayerJoined" });
    assert.equal(created.length, 2);
    const seated = [...created.map((e) => e.args.creator!), ...joined.map((e) => e.args.player!)];
    assert.ok(seated.length >= 4);
    for (const player of seated)
      assert.ok(!appAccounts.includes(player), `${player} is a dev account`);
    // Not a wei from the accounts the app offers: bets, gas and the bots' Test USD mints included.
    assert.deepEqual(await balances(), balancesBefore);
  });
});
