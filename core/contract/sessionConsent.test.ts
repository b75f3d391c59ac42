import { describe, expect, it } from "vitest";
import { hashTypedData, keccak256, recoverTypedDataAddress, toHex, type Address } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  SESSION_CONSENT_TYPES,
  sessionConsentDomain,
  sessionConsentTypedData,
  signSessionConsent,
  type SessionGrant,
} from "./sessionConsent.ts";

const HALL: Address = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const PLAYER: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const key = privateKeyToAccount(keccak256(toHex("a session key")));
const grant: SessionGrant = {
  key: key.address,
  expiresAt: 1_800_000_000n,
  feeAllowance: 40n * 10n ** 13n,
  keyGas: 10n ** 15n,
};
const args = { chainId: 8453, hall: HALL, player: PLAYER, grant };

describe("a session key's consent (EIP-712)", () => {
  it("is the type DiceHallDesk hashes, in the hall's domain on its chain", () => {
    expect(sessionConsentDomain(8453, HALL)).toEqual({
      name: "DiceHall",
      version: "1",
      chainId: 8453,
      verifyingContract: HALL,
    });
    // The contract's SESSION_CONSENT_TYPEHASH is keccak256 of this string.
    const fields = SESSION_CONSENT_TYPES.SessionConsent.map((f) => `${f.type} ${f.name}`);
    expect(`SessionConsent(${fields.join(",")})`).toBe(
      "SessionConsent(address player,address key,uint64 expiresAt,uint128 feeAllowance,uint128 keyGas)",
    );
    expect(sessionConsentTypedData(args).message).toEqual({ player: PLAYER, ...grant });
  });

  it("is signed by the key and recovers to it, and only for this player, grant, hall and chain", async () => {
    const signature = await signSessionConsent(key, args);
    expect(await recoverTypedDataAddress({ ...sessionConsentTypedData(args), signature })).toBe(
      key.address,
    );
    const digest = hashTypedData(sessionConsentTypedData(args));
    for (const other of [
      { ...args, player: HALL },
      { ...args, chainId: 84532 },
      { ...args, hall: PLAYER },
      { ...args, grant: { ...grant, expiresAt: grant.expiresAt + 1n } },
      { ...args, grant: { ...grant, feeAllowance: grant.feeAllowance + 1n } },
    ]) {
      expect(hashTypedData(sessionConsentTypedData(other))).not.toBe(digest);
    }
  });
});
