import { buildModule } from "@nomicfoundation/hardhat-ignition/modules";

import DiceHallModule from "./DiceHall.ts";

/**
 * The DiceHall deployment, then a handover of ownership to `newOwner` (module "DiceHallHandover",
 * required, so a missing owner stops the deployment before any transaction is sent).
 *
 * DiceHall is Ownable2Step: this only names the pending owner. Until `newOwner` calls
 * `acceptOwnership()` (a Safe transaction, or `hardhat dicehall accept-ownership` from that key),
 * the deployer remains the owner and can still correct the configuration or name someone else.
 * Deployed with the same deployment id as an earlier DiceHall deployment, Ignition reuses the
 * contract and its configuration and sends only the transfer.
 */
export default buildModule("DiceHallHandover", (m) => {
  const { diceHall } = m.useModule(DiceHallModule);
  m.call(diceHall, "transferOwnership", [m.getParameter<string>("newOwner")], {
    from: m.getAccount(0),
  });
  return { diceHall };
});
