import { defineChain, http, type Transport } from "viem";
import { arbitrum, arbitrumSepolia, base, baseSepolia, hardhat } from "viem/chains";
import { LOCAL_CHAIN_ID } from "@dicehall/core/contract/deployments.ts";
import { deploymentFor } from "./deployments.ts";

export { LOCAL_CHAIN_ID };
export const LOCAL_RPC_URL = import.meta.env.VITE_RPC_URL || "http://127.0.0.1:8545";

const localChain = defineChain({
  ...hardhat,
  name: "Local node",
  rpcUrls: { default: { http: [LOCAL_RPC_URL] } },
});

const ALL_CHAINS = [localChain, base, baseSepolia, arbitrum, arbitrumSepolia] as const;
export type AppChain = (typeof ALL_CHAINS)[number];
export type AppChainId = AppChain["id"];

/**
 * Chains with a deployment come first, so the first one is where a visitor without a wallet
 * lands. The local node is offered only when something is deployed on it or in dev mode.
 */
export const appChains = ALL_CHAINS.filter(
  (chain) => chain.id !== LOCAL_CHAIN_ID || import.meta.env.DEV || deploymentFor(chain.id),
).sort(
  (a, b) => Number(!deploymentFor(a.id)) - Number(!deploymentFor(b.id)),
) as unknown as typeof ALL_CHAINS;

export function chainById(chainId: number | undefined): AppChain | undefined {
  return ALL_CHAINS.find((chain) => chain.id === chainId);
}

function rpcUrl(chainId: AppChainId): string | undefined {
  if (chainId === LOCAL_CHAIN_ID) return LOCAL_RPC_URL;
  return import.meta.env[`VITE_RPC_URL_${chainId}`] || undefined;
}

/** JSON-RPC batching lets the many view calls of a table share one HTTP request. */
export const transports = Object.fromEntries(
  ALL_CHAINS.map((chain) => [chain.id, http(rpcUrl(chain.id), { batch: { wait: 16 } })]),
) as Record<AppChainId, Transport>;

/**
 * How often to poll for new blocks and events. The event watcher is what brings a roll's dice to
 * the table, and they must settle within 1.5 s of the DiceRolled block (reading the game and the
 * last tumble cycle take up to 0.8 s of that): the local node, on this machine and mining on
 * demand, is asked four times a second (`npm run bench:dice` measures it).
 */
export function pollingInterval(chainId: number): number {
  return chainId === LOCAL_CHAIN_ID ? 250 : 2_000;
}
