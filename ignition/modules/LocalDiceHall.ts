import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

import type { IgnitionModuleBuilder } from "@nomicfoundation/ignition-core";

import { deployDiceHall, type DiceHallSettings } from "./DiceHall.ts";

/**
 * Stands in for Pyth's provider on the local chain. Any non-zero address works: MockEntropy keys
 * requests by it and anyone may reveal; the local keeper reads it from each `Requested` event.
 */
export const LOCAL_ENTROPY_PROVIDER = "0x00000000000000000000000000000000000d1ce5";
/** How many dev accounts get Test USD, and how much (6 decimals). */
export const FUNDED_ACCOUNTS = 10;
export const TUSD_PER_ACCOUNT = 10_000n * 10n ** 6n;
/** The node account that plays Pyth's provider on the model (players use the first ten). */
export const MODEL_PROVIDER_ACCOUNT = 18;

const ETHER = 10n ** 18n;
const TUSD = 10n ** 6n;

/**
 * The whole system for the local chain: Pyth's MockEntropy, the Test USD token, DiceHall on top
 * with both coins allowed, and Test USD in the first dev accounts. Time bounds are short enough to
 * try joins, timeouts and entropy retries by hand. Every value can be overridden by parameters
 * of module "LocalDiceHall".
 */
export default buildModule("LocalDiceHall", (m) => {
  const mockEntropy = m.contract("MockEntropy", [
    m.getParameter("entropyProvider", LOCAL_ENTROPY_PROVIDER),
  ]);
  return { ...localHall(m, mockEntropy), mockEntropy };
});

/**
 * The same system on our Entropy model (contracts/test/EntropyModel.sol) instead of MockEntropy:
 * its default provider is a node account (MODEL_PROVIDER_ACCOUNT), which the dev stack registers
 * on a hash chain before play, so numbers are revealed the real way (`revealWithCallback`).
 */
export const LocalModelDiceHallModule = buildModule("LocalModelDiceHall", (m) => {
  const entropyModel = m.contract("EntropyModel", [
    m.getParameter("pythFee", 1_000_000_000n),
    m.getAccount(MODEL_PROVIDER_ACCOUNT),
  ]);
  return { ...localHall(m, entropyModel), entropyModel };
});

function localHall(m: IgnitionModuleBuilder, entropy: DiceHallSettings["entropy"]) {
  const testToken = m.contract("TestToken");

  const diceHall = deployDiceHall(m, {
    entropy,
    houseFeeBps: m.getParameter("houseFeeBps", 250),
    joinWindow: {
      min: m.getParameter("joinWindowMin", 30),
      max: m.getParameter("joinWindowMax", 7 * 24 * 3600),
    },
    moveTimeout: {
      min: m.getParameter("moveTimeoutMin", 15),
      max: m.getParameter("moveTimeoutMax", 7 * 24 * 3600),
    },
    entropyTimeout: m.getParameter("entropyTimeout", 1800),
    callOffWindow: m.getParameter("callOffWindow", 24 * 3600),
    callbackGasLimit: m.getParameter("callbackGasLimit", 100_000),
    native: {
      allowed: true,
      minBet: m.getParameter("nativeMinBet", ETHER / 1000n),
      maxBet: m.getParameter("nativeMaxBet", 10n * ETHER),
    },
  });

  m.call(
    diceHall,
    "setTokenConfig",
    [
      testToken,
      true,
      m.getParameter("tusdMinBet", 1n * TUSD),
      m.getParameter("tusdMaxBet", 1_000n * TUSD),
    ],
    { from: m.getAccount(0), id: "setTokenConfig_TestToken" },
  );

  for (let i = 0; i < FUNDED_ACCOUNTS; i++) {
    m.call(testToken, "mint", [m.getAccount(i), TUSD_PER_ACCOUNT], { id: `mint_account${i}` });
  }

  return { diceHall, testToken };
}
