import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, it } from "node:test";
import { network } from "hardhat";
import { encodeAbiParameters, keccak256, toBytes, toHex, type Hex } from "viem";
import { consentOf, NATIVE, hallFixture, send } from "./helpers/hall.ts";

/**
 * DiceHall and DiceHallDesk share one storage through delegatecall (docs/ARCHITECTURE.md, "One
 * contract, two pieces of code"): their layouts, as the compiler lays them out, must be the same
 * variable for variable, or the desk's code would read and write the wrong slots. And the key
 * grants' area is where ERC-7201's formula puts it, far from every other variable.
 */

const require = createRequire(import.meta.url);
const solc = require("solc") as { compile(input: string): string };

interface StorageEntry {
  label: string;
  slot: string;
  offset: number;
  type: string;
}

interface Layout {
  storage: StorageEntry[];
  types: Record<string, { label: string; numberOfBytes: string }>;
}

/**
 * The storage layouts of the hall's contracts, compiled again from the build's own input;
 * `plant` rewrites DiceHall's source first (to see the check catch a variable of its own).
 */
function layouts(plant?: (source: string) => string): Record<string, Layout> {
  const artifacts = join(import.meta.dirname, "..", "artifacts");
  // The build the hall's artifact came from (an older build's info may still lie beside it).
  const artifact = JSON.parse(
    readFileSync(join(artifacts, "contracts", "DiceHall.sol", "DiceHall.json"), "utf8"),
  );
  const file = JSON.parse(
    readFileSync(join(artifacts, "build-info", `${artifact.buildInfoId}.json`), "utf8"),
  );
  assert.ok(file.userSourceNameMap?.["contracts/DiceHall.sol"], "run `npm run build` first");
  const input = structuredClone(file.input);
  const hallSource = file.userSourceNameMap["contracts/DiceHall.sol"] as string;
  if (plant) input.sources[hallSource].content = plant(input.sources[hallSource].content);
  // The layout only: no code is generated, so this takes seconds, not minutes.
  input.settings.outputSelection = { "*": { "*": ["storageLayout"] } };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
  assert.deepEqual(errors, []);
  const source = file.userSourceNameMap["contracts/DiceHall.sol"] as string;
  const deskSource = source.replace("DiceHall.sol", "DiceHallDesk.sol");
  return {
    hall: output.contracts[source].DiceHall.storageLayout,
    desk: output.contracts[deskSource].DiceHallDesk.storageLayout,
  };
}

/** Whether the desk's layout starts with the hall's, variable for variable. */
function sameShared(hall: Layout, desk: Layout): boolean {
  const shared = desk.storage.slice(0, hall.storage.length);
  return (
    JSON.stringify(shared.map((e) => shape(desk, e))) ===
    JSON.stringify(hall.storage.map((e) => shape(hall, e)))
  );
}

/** A variable as the other contract must see it: its name, place and type (not the AST ids). */
function shape(layout: Layout, e: StorageEntry) {
  return { label: e.label, slot: e.slot, offset: e.offset, type: layout.types[e.type].label };
}

/** ERC-7201: keccak256(abi.encode(uint256(keccak256(id)) - 1)) & ~0xff. */
function erc7201(id: string): bigint {
  const inner = BigInt(keccak256(toBytes(id))) - 1n;
  return BigInt(keccak256(encodeAbiParameters([{ type: "uint256" }], [inner]))) & ~0xffn;
}

describe("the storage DiceHall and DiceHallDesk share", () => {
  const { hall, desk } = layouts();

  it("is the same variable for variable; the desk adds only EIP712's unused strings after it", () => {
    assert.ok(hall.storage.length > 10, "the hall's layout has its variables");
    const shared = desk.storage.slice(0, hall.storage.length);
    assert.deepEqual(
      shared.map((e) => shape(desk, e)),
      hall.storage.map((e) => shape(hall, e)),
    );
    const last = hall.storage[hall.storage.length - 1];
    const extra = desk.storage.slice(hall.storage.length);
    assert.deepEqual(
      extra.map((e) => e.label),
      ["_nameFallback", "_versionFallback"],
    );
    for (const e of extra) assert.ok(BigInt(e.slot) > BigInt(last.slot));
  });

  it("catches a variable declared in DiceHall alone", () => {
    assert.ok(sameShared(hall, desk));
    const planted = layouts((source) =>
      source.replace(
        "contract DiceHall is IDiceHall, DiceHallStorage {",
        "contract DiceHall is IDiceHall, DiceHallStorage {\n    uint256 private _planted;",
      ),
    );
    assert.ok(
      planted.hall.storage.some((e) => e.label === "_planted"),
      "the plant took",
    );
    assert.ok(!sameShared(planted.hall, planted.desk));
  });

  it("keeps every declared variable in the first 1 024 slots, so none nears the key grants' area", () => {
    for (const e of [...hall.storage, ...desk.storage]) {
      assert.ok(BigInt(e.slot) < 1024n, `${e.label} at slot ${e.slot}`);
    }
    const base = erc7201("dicehall.keyGrants");
    assert.ok(base + (1n << 160n) < 1n << 256n, "the area does not wrap past the last slot");
    assert.ok(base > 1n << 160n);
  });

  it("finds a key's grant at the ERC-7201 area's slot plus the key's address", async () => {
    const connection = await network.create();
    const h = await connection.networkHelpers.loadFixture(hallFixture);
    const key = h.wallets[10];
    const grant = {
      key: key.account.address,
      expiresAt: BigInt(Math.floor(Date.now() / 1000) + 3600),
      feeAllowance: 777n,
      keyGas: 0n,
    };
    await send(
      h,
      h.hall.write.openSession([grant, await consentOf(h, key, h.alice, grant)], {
        account: h.alice.account,
        value: grant.feeAllowance,
      }),
    );
    const slot = erc7201("dicehall.keyGrants") + BigInt(key.account.address);
    const word = BigInt(
      (await h.publicClient.getStorageAt({
        address: h.hall.address,
        slot: toHex(slot, { size: 32 }),
      })) as Hex,
    );
    // KeyGrant: player in the low 160 bits, then expiresAt (32), then feeLeft (64).
    assert.equal(word & ((1n << 160n) - 1n), BigInt(h.alice.account.address));
    assert.equal((word >> 160n) & 0xffffffffn, grant.expiresAt);
    assert.equal(word >> 192n, 777n);
    assert.equal(await h.hall.read.credits([NATIVE, h.alice.account.address]), 0n);
  });
});
