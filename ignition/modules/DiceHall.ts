import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";
import type { ArgumentType, IgnitionModuleBuilder } from "@nomicfoundation/ignition-core";

/** The native coin in `setTokenConfig` and in the parameters. */
export const NATIVE = "0x0000000000000000000000000000000000000000";

/** What a deployment configures; each value is a literal, a module parameter or a future. */
export interface DiceHallSettings {
  entropy: ArgumentType;
  houseFeeBps: ArgumentType;
  joinWindow: { min: ArgumentType; max: ArgumentType };
  moveTimeout: { min: ArgumentType; max: ArgumentType };
  entropyTimeout: ArgumentType;
  callOffWindow: ArgumentType;
  callbackGasLimit: ArgumentType;
  /** The chain's native coin (address 0); `allowed: false` leaves it refused. */
  native: { allowed: ArgumentType; minBet: ArgumentType; maxBet: ArgumentType };
}

/**
 * Deploys DiceHall owned by the deployer (account 0) and applies `settings` with one owner call
 * each, so that the deployment journal records the whole configuration. Shared by the real-network
 * module below and by LocalDiceHall, which hands in its own MockEntropy.
 */
export function deployDiceHall(m: IgnitionModuleBuilder, settings: DiceHallSettings) {
  const deployer = m.getAccount(0);
  const diceHall = m.contract("DiceHall", [settings.entropy, deployer]);
  const asOwner = { from: deployer };

  m.call(diceHall, "setHouseFee", [settings.houseFeeBps], asOwner);
  m.call(
    diceHall,
    "setJoinWindowBounds",
    [settings.joinWindow.min, settings.joinWindow.max],
    asOwner,
  );
  m.call(
    diceHall,
    "setMoveTimeoutBounds",
    [settings.moveTimeout.min, settings.moveTimeout.max],
    asOwner,
  );
  // The window first: an entropy timeout must fit 12 times into it.
  const window = m.call(diceHall, "setCallOffWindow", [settings.callOffWindow], asOwner);
  m.call(diceHall, "setEntropyTimeout", [settings.entropyTimeout], { ...asOwner, after: [window] });
  m.call(diceHall, "setCallbackGasLimit", [settings.callbackGasLimit], asOwner);
  m.call(
    diceHall,
    "setTokenConfig",
    [NATIVE, settings.native.allowed, settings.native.minBet, settings.native.maxBet],
    { ...asOwner, id: "setTokenConfig_native" },
  );
  return diceHall;
}

/**
 * DiceHall on a chain where Pyth Entropy runs. Parameters (module "DiceHall"; bigints as "123n"):
 *
 *   entropy           the Pyth Entropy contract (required; see ignition/parameters/*.json)
 *   houseFeeBps       house fee in basis points, at most 1000 (required: a deliberate choice)
 *   joinWindowMin/Max bounds for a lobby's join window, seconds              default 60 / 604800
 *   moveTimeoutMin/Max bounds for a player's move timeout, seconds          default 60 / 604800
 *   entropyTimeout    seconds before a roll still waiting for Entropy may be asked again (>= 1800)  default 1800
 *   callOffWindow     seconds a roll may stay out before its game may be called off
 *                     (6 h .. 7 days, and >= 12 entropy timeouts)                default 86400
 *   callbackGasLimit  gas asked for each Entropy callback (>= 60000)             default 100000
 *   nativeAllowed, nativeMinBet, nativeMaxBet   the native coin (wei)     default refused, 0, 0
 *
 * ERC-20 tokens are allowed after deployment with `hardhat dicehall token` (Ignition resolves
 * parameters only when it executes, so a module cannot loop over a list of them).
 * The deployer stays the owner; ignition/modules/DiceHallHandover.ts hands the contract over.
 */
export default buildModule("DiceHall", (m) => {
  const diceHall = deployDiceHall(m, {
    entropy: m.getParameter<string>("entropy"),
    houseFeeBps: m.getParameter<number>("houseFeeBps"),
    joinWindow: {
      min: m.getParameter("joinWindowMin", 60),
      max: m.getParameter("joinWindowMax", 7 * 24 * 3600),
    },
    moveTimeout: {
      min: m.getParameter("moveTimeoutMin", 60),
      max: m.getParameter("moveTimeoutMax", 7 * 24 * 3600),
    },
    entropyTimeout: m.getParameter("entropyTimeout", 1800),
    callOffWindow: m.getParameter("callOffWindow", 24 * 3600),
    callbackGasLimit: m.getParameter("callbackGasLimit", 100_000),
    native: {
      allowed: m.getParameter("nativeAllowed", false),
      minBet: m.getParameter("nativeMinBet", 0n),
      maxBet: m.getParameter("nativeMaxBet", 0n),
    },
  });
  return { diceHall };
});
