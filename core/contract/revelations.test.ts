import { describe, expect, it } from "vitest";
import { parseAbiItem } from "viem";
import { parseDeployments } from "./deployments.ts";
import {
  entropyRequestedEvent,
  entropyRevealAbi,
  FORTUNA_SERVICES,
  fetchRevelation,
  parseRevelation,
  revelationBody,
  revelationUrl,
} from "./revelations.ts";

const R = `0x${"ab".repeat(32)}` as const;

describe("the revelation service (Fortuna's shape)", () => {
  it("names a request's revelation under the service's chain", () => {
    expect(revelationUrl("https://fortuna.dourolabs.app/v1/chains/base/", 42n)).toBe(
      "https://fortuna.dourolabs.app/v1/chains/base/revelations/42?encoding=hex",
    );
  });

  it("reads the revelation with or without 0x, and refuses any other shape", () => {
    expect(parseRevelation({ value: { data: "ab".repeat(32), encoding: "hex" } })).toBe(R);
    expect(parseRevelation(revelationBody(R))).toBe(R);
    expect(parseRevelation({ value: { data: R } })).toBe(R);
    expect(() => parseRevelation({ value: { data: "abcd", encoding: "hex" } })).toThrow();
    expect(() => parseRevelation({ value: { data: R, encoding: "base64" } })).toThrow();
    expect(() => parseRevelation({ error: "no" })).toThrow();
  });

  it("answers undefined while the service does not serve the request yet", async () => {
    const notYet = (async () => new Response("{}", { status: 403 })) as typeof fetch;
    expect(await fetchRevelation("http://x/v1/chains/local", 1n, notYet)).toBeUndefined();
    const served = (async (url: string) => {
      expect(url).toBe("http://x/v1/chains/local/revelations/7?encoding=hex");
      return new Response(JSON.stringify(revelationBody(R)));
    }) as typeof fetch;
    expect(await fetchRevelation("http://x/v1/chains/local", 7n, served)).toBe(R);
  });

  it("a deployment on a Pyth chain names Fortuna unless it names its own service", () => {
    const entry = {
      chainId: 8453,
      diceHall: "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0",
      entropy: "0x6E7D74FA7d5c90FEF9F0512987605a6d546181Bb",
      deploymentBlock: 1,
    } as const;
    expect(parseDeployments({ "8453": entry }).get(8453)?.revelations).toBe(FORTUNA_SERVICES[8453]);
    expect(
      parseDeployments({ "8453": { ...entry, revelations: "http://mine/v1/chains/base" } }).get(
        8453,
      )?.revelations,
    ).toBe("http://mine/v1/chains/base");
  });
});

describe("Entropy's delivery ABI", () => {
  it("is Entropy's own signatures, argument for argument", () => {
    const reveal =
      "function revealWithCallback(address provider, uint64 sequenceNumber, bytes32 userRandomNumber, bytes32 providerRevelation)";
    const requested =
      "event Requested(address indexed provider, address indexed caller, uint64 indexed sequenceNumber, bytes32 userContribution, uint32 gasLimit, bytes extraArgs)";
    expect(entropyRevealAbi).toEqual([parseAbiItem(reveal)]);
    expect(entropyRequestedEvent).toEqual(parseAbiItem(requested));
  });
});
