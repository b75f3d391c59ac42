import { createConfig, createStorage, type CreateConnectorFn } from "wagmi";
import { injected } from "wagmi/connectors/injected";
import { appChains, LOCAL_CHAIN_ID, LOCAL_RPC_URL, pollingInterval, transports } from "./chains.ts";
import { devAccounts } from "./devAccounts.ts";

/**
 * wagmi's state lives per tab (sessionStorage) so two tabs can hold two different players, and is
 * mirrored to localStorage so a new tab starts from the last wallet used.
 */
const tabStorage = {
  getItem(key: string): string | null {
    try {
      return sessionStorage.getItem(key) ?? localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  setItem(key: string, value: string): void {
    try {
      sessionStorage.setItem(key, value);
      localStorage.setItem(key, value);
    } catch {
      // Storage unavailable (private mode): state lasts until reload.
    }
  },
  removeItem(key: string): void {
    try {
      sessionStorage.removeItem(key);
      localStorage.removeItem(key);
    } catch {
      // As above.
    }
  },
};

export function createWagmiConfig(extraConnectors: readonly CreateConnectorFn[] = []) {
  const hasLocalChain = appChains.some((chain) => chain.id === LOCAL_CHAIN_ID);
  const connectors: CreateConnectorFn[] = [
    // A fallback for a legacy window.ethereum that does not announce itself via EIP-6963.
    injected(),
    ...(hasLocalChain ? [devAccounts({ rpcUrl: LOCAL_RPC_URL, chainId: LOCAL_CHAIN_ID })] : []),
    ...extraConnectors,
  ];
  return createConfig({
    chains: appChains,
    transports,
    connectors,
    // EIP-6963: every wallet in the browser announces itself and gets its own connector.
    multiInjectedProviderDiscovery: true,
    storage: createStorage({ storage: tabStorage, key: "dicehall" }),
    pollingInterval: Object.fromEntries(appChains.map((c) => [c.id, pollingInterval(c.id)])),
    // The first render is the build's prerendered page (web/src/prerender.tsx draws it with this
    // same config): no wallet yet. The last wallet used is read back, and asked to reconnect,
    // only once the page is on screen, so the browser's first render is the prerender's and
    // React takes over its HTML as it is.
    ssr: true,
  });
}

export type AppConfig = ReturnType<typeof createWagmiConfig>;

declare module "wagmi" {
  interface Register {
    config: AppConfig;
  }
}

/**
 * WalletConnect is offered only when a project id is configured, and its code (the connector and
 * its SDK) is fetched only then.
 */
export async function loadOptionalConnectors(): Promise<CreateConnectorFn[]> {
  const projectId = import.meta.env.VITE_WALLETCONNECT_PROJECT_ID;
  if (!projectId) return [];
  try {
    const { walletConnect } = await import("wagmi/connectors/walletConnect");
    return [walletConnect({ projectId, showQrModal: true })];
  } catch (error) {
    console.warn("WalletConnect could not be loaded; it is left out.", error);
    return [];
  }
}
