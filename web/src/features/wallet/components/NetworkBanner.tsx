import { useSwitchChain } from "wagmi";
import { chainById, type AppChainId } from "@/chain/chains.ts";
import { deployedChainIds } from "@/chain/deployments.ts";
import { describeError } from "@/chain/errors.ts";
import { useHallStatus } from "@/chain/hall.ts";

/** Names of networks a wallet is often on, for the message; the hall's own chains come from the config. */
const OTHER_NETWORKS: Record<number, string> = {
  1: "Ethereum",
  10: "OP Mainnet",
  56: "BNB Chain",
  137: "Polygon",
  11155111: "Sepolia",
  17000: "Holesky",
};

/** Says when the wallet is on a network without the hall, and offers the switch. */
export function NetworkBanner() {
  const { wrongNetwork, walletChainId, hall } = useHallStatus();
  const switchChain = useSwitchChain();
  const targets = deployedChainIds()
    .map((id) => chainById(id))
    .filter((c) => c !== undefined);

  if (targets.length === 0) {
    return (
      <div className="banner banner--warn" role="region" aria-label="Network">
        <p>
          <strong>No hall deployed.</strong> This build has no DiceHall deployment for any network.
          For local play run <code>npm run dev</code>.
        </p>
      </div>
    );
  }
  if (!wrongNetwork) return null;
  const current =
    chainById(walletChainId)?.name ??
    OTHER_NETWORKS[walletChainId ?? 0] ??
    `network ${walletChainId}`;
  return (
    <div className="banner banner--warn" role="region" aria-label="Network">
      <p>
        <strong>Wrong network.</strong> Your wallet is on {current}; the hall runs on{" "}
        {targets.map((c) => c.name).join(" or ")}. You can look around
        {hall ? ` (showing ${hall.chain.name})` : ""}, but to play, switch networks.
      </p>
      <div className="banner__actions">
        {targets.map((chain) => (
          <button
            key={chain.id}
            type="button"
            className="button button--primary"
            disabled={switchChain.isPending}
            onClick={() => switchChain.mutate({ chainId: chain.id as AppChainId })}
          >
            Switch to {chain.name}
          </button>
        ))}
      </div>
      {switchChain.error && (
        <p className="tx tx--error" role="alert">
          {describeError(switchChain.error).message}
        </p>
      )}
    </div>
  );
}
