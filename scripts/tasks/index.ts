// `npx hardhat dicehall <command> --network <name>`: the operator's tasks. Registered in
// hardhat.config.ts with `tasks: diceHallTasks`. See docs/OPERATORS.md.
import { emptyTask, task } from "hardhat/config";
import { ArgumentType } from "hardhat/types/arguments";
import type { TaskDefinition } from "hardhat/types/tasks";

const actions = () => import("./actions.ts");

// Every command talks to DiceHall at --address, or else at this chain's Ignition deployment.
const address = {
  name: "address",
  description: "DiceHall's address (default: this network's deployment in ignition/deployments)",
  type: ArgumentType.STRING_WITHOUT_DEFAULT,
  defaultValue: undefined,
} as const;

const optional = (name: string, description: string) =>
  ({
    name,
    description,
    type: ArgumentType.STRING_WITHOUT_DEFAULT,
    defaultValue: undefined,
  }) as const;

export const diceHallTasks: TaskDefinition[] = [
  emptyTask("dicehall", "Operate a deployed DiceHall").build(),

  task(["dicehall", "status"], "Owner, fee, bounds, entropy, allowed tokens, treasury, pause")
    .addOption(address)
    .setAction(() => actions().then((m) => ({ default: m.status })))
    .build(),

  task(["dicehall", "token"], "Allow a token with bet limits (in token units), or forbid it")
    .addOption({
      name: "token",
      description: 'The ERC-20 address, or "native" for the chain\'s coin',
      defaultValue: "native",
    })
    .addOption(optional("min", "Smallest bet, e.g. 0.001 or 1"))
    .addOption(optional("max", "Largest bet, e.g. 0.1 or 500"))
    .addFlag({ name: "forbid", description: "Refuse the token in new lobbies" })
    .addOption(address)
    .setAction(() => actions().then((m) => ({ default: m.token })))
    .build(),

  task(["dicehall", "fee"], "Set the house fee for lobbies opened from now on")
    .addOption({
      name: "bps",
      description: "Basis points, 0..1000 (250 = 2.5%)",
      type: ArgumentType.INT,
      defaultValue: -1,
    })
    .addOption(address)
    .setAction(() => actions().then((m) => ({ default: m.fee })))
    .build(),

  task(["dicehall", "bounds"], "Set the join-window and/or move-timeout bounds (60, 90s, 15m, 7d)")
    .addOption(optional("joinMin", "Shortest join window"))
    .addOption(optional("joinMax", "Longest join window"))
    .addOption(optional("moveMin", "Shortest move timeout"))
    .addOption(optional("moveMax", "Longest move timeout"))
    .addOption(address)
    .setAction(() => actions().then((m) => ({ default: m.bounds })))
    .build(),

  task(
    ["dicehall", "entropy"],
    "Set the entropy timeout, call-off window, callback gas limit and/or provider",
  )
    .addOption(optional("timeout", "How long a roll waits before it may be asked again (e.g. 30m)"))
    .addOption(
      optional("callOffWindow", "How long a roll may stay out before the game may be called off"),
    )
    .addOption(optional("callbackGas", "Gas asked for each Entropy callback"))
    .addOption(optional("provider", "Entropy's default provider (the hall takes no other)"))
    .addOption(address)
    .setAction(() => actions().then((m) => ({ default: m.entropy })))
    .build(),

  task(["dicehall", "pause"], "Stop new lobbies and joins (play and withdrawals go on)")
    .addOption(address)
    .setAction(() => actions().then((m) => ({ default: m.pause })))
    .build(),

  task(["dicehall", "unpause"], "Open lobbies and joins again")
    .addOption(address)
    .setAction(() => actions().then((m) => ({ default: m.unpause })))
    .build(),

  task(["dicehall", "withdraw-treasury"], "Send collected house fees to an address")
    .addOption({
      name: "token",
      description: 'The ERC-20 address, or "native"',
      defaultValue: "native",
    })
    .addOption({
      name: "to",
      description: "Where the fees go",
      type: ArgumentType.STRING_WITHOUT_DEFAULT,
      defaultValue: undefined,
    })
    .addOption(optional("amount", 'In token units, or "all" (default)'))
    .addOption(address)
    .setAction(() => actions().then((m) => ({ default: m.withdrawTreasury })))
    .build(),

  task(["dicehall", "transfer-ownership"], "Name a new owner (it must accept)")
    .addOption({
      name: "to",
      description: "The new owner (a multisig, ideally)",
      type: ArgumentType.STRING_WITHOUT_DEFAULT,
      defaultValue: undefined,
    })
    .addOption(address)
    .setAction(() => actions().then((m) => ({ default: m.transferOwnership })))
    .build(),

  task(["dicehall", "accept-ownership"], "Accept ownership, as the pending owner")
    .addOption(address)
    .setAction(() => actions().then((m) => ({ default: m.acceptOwnership })))
    .build(),
];
