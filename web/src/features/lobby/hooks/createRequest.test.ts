import { describe, expect, it } from "vitest";
import { zeroAddress, type Address } from "viem";
import { createRequest } from "./useCreateGame.ts";

const HALL: Address = "0x00000000000000000000000000000000000000a1";
const KEY: Address = "0x00000000000000000000000000000000000000b2";
const config = {
  token: zeroAddress,
  bet: 10n ** 16n,
  seats: 2,
  ruleSet: 0,
  joinWindow: 900,
  moveTimeout: 300,
  invitees: [] as Address[],
};
const grant = {
  key: KEY,
  expiresAt: 1_800_000_000n,
  feeAllowance: 5n,
  keyGas: 7n,
  consent: "0x1234" as const,
};
const session = {
  needs: {
    rolls: 126,
    feeDeposit: 5n,
    keyGas: 7n,
    maxFeePerGas: 1n,
    expected: { fees: 3n, gas: 9n, total: 12n },
  },
  expiresAt: 1_800_000_000,
  value: 10n ** 16n + 12n,
};

describe("createRequest", () => {
  it("opens a match of several games with createMatch, the length after the config", () => {
    const request = createRequest(HALL, config, 3, null, null, 10n ** 16n);
    expect(request).toMatchObject({
      functionName: "createMatch",
      args: [config, 3],
      value: 10n ** 16n,
    });
  });

  it("grants the key for the whole match in the same call (one confirmation)", () => {
    const request = createRequest(HALL, config, 5, grant, session, 0n);
    expect(request).toMatchObject({
      functionName: "createMatchWithSession",
      args: [config, 5, grant, grant.consent],
      value: session.value,
    });
  });

  it("keeps a single game's calls as they were", () => {
    expect(createRequest(HALL, config, 1, null, null, 1n)).toMatchObject({
      functionName: "createGame",
      args: [config],
    });
    expect(createRequest(HALL, config, 1, grant, session, 0n).functionName).toBe(
      "createGameWithSession",
    );
  });
});
