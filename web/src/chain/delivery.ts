import type { Abi, Address } from "viem";
import { getLogs } from "viem/actions";
import {
  entropyRequestedEvent,
  entropyRevealAbi,
  fetchRevelation,
} from "@dicehall/core/contract/revelations.ts";
import type { Hall } from "./hall.ts";
import type { WriteRequest } from "./write.ts";

/**
 * Delivering a stalled roll ourselves (issue 27): an accepted Entropy request is never asked again,
 * and its number is public once the provider's revelation service serves it. So any seated player's
 * app can deliver it: the provider's revelation from the service (Pyth's Fortuna, or the local one),
 * the user number from Entropy's `Requested` event, then Entropy's `revealWithCallback`, which
 * anyone may call. It goes through the app's normal write path (useTx).
 */
export async function deliveryRequest(
  hall: Hall,
  provider: Address,
  sequenceNumber: bigint,
): Promise<WriteRequest> {
  const service = hall.deployment.revelations;
  if (!service) throw new Error("This network names no revelation service to deliver from.");
  const revelation = await fetchRevelation(service, sequenceNumber).catch(() => {
    throw new Error("The randomness provider's revelation service could not be reached.");
  });
  if (revelation === undefined) {
    throw new Error(
      `The revelation service does not serve request #${sequenceNumber} yet. Try again in a moment.`,
    );
  }
  const [requested] = await getLogs(hall.client, {
    address: hall.deployment.entropy,
    event: entropyRequestedEvent,
    args: { provider, sequenceNumber },
    fromBlock: hall.deployment.deploymentBlock,
  });
  const userRandom = requested?.args.userContribution;
  if (userRandom === undefined) {
    throw new Error(`Request #${sequenceNumber} is not on chain (yet): nothing to deliver.`);
  }
  return {
    address: hall.deployment.entropy,
    abi: entropyRevealAbi as Abi,
    functionName: "revealWithCallback",
    args: [provider, sequenceNumber, userRandom, revelation],
  };
}
