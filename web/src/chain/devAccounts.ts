import {
  custom,
  getAddress,
  numberToHex,
  RpcRequestError,
  SwitchChainError,
  type Address,
  type EIP1193RequestFn,
} from "viem";
import { rpc } from "viem/utils";
import { createConnector } from "wagmi";

/**
 * A connector for the local node's own unlocked accounts: the node signs, so two browser tabs can
 * be two players with no wallet extension. Each tab remembers its account in sessionStorage.
 */
export const DEV_ACCOUNTS_ID = "devAccounts";
const SESSION_KEY = "dicehall.devAccount";

export interface DevAccountsProperties extends Record<string, unknown> {
  /** The node's accounts, in its own order. */
  listAccounts(): Promise<Address[]>;
  /** Makes `account` this tab's account (connected or not). */
  selectAccount(account: Address): Promise<void>;
}

interface Provider {
  request: EIP1193RequestFn;
}

function sessionAccount(): Address | null {
  try {
    const value = globalThis.sessionStorage?.getItem(SESSION_KEY);
    return value ? getAddress(value) : null;
  } catch {
    return null;
  }
}

function rememberAccount(account: Address | null): void {
  try {
    if (account) globalThis.sessionStorage?.setItem(SESSION_KEY, account);
    else globalThis.sessionStorage?.removeItem(SESSION_KEY);
  } catch {
    // Private mode without storage: the choice lasts until reload.
  }
}

async function nodeRequest(url: string, method: string, params?: unknown): Promise<unknown> {
  const body = { method, params };
  const { result, error } = await rpc.http(url, { body });
  if (error) throw new RpcRequestError({ body, error, url });
  return result;
}

export function devAccounts(parameters: { rpcUrl: string; chainId: number }) {
  const { rpcUrl, chainId } = parameters;
  let current: Address | null = null;
  let provider: Provider | undefined;

  async function listAccounts(): Promise<Address[]> {
    const accounts = (await nodeRequest(rpcUrl, "eth_accounts")) as string[];
    return accounts.map((a) => getAddress(a));
  }

  return createConnector<Provider, DevAccountsProperties>((config) => ({
    id: DEV_ACCOUNTS_ID,
    name: "Dev accounts (local node)",
    type: DEV_ACCOUNTS_ID,

    async connect({ withCapabilities } = {}) {
      const available = await listAccounts();
      if (available.length === 0) throw new Error("The local node has no unlocked accounts.");
      const chosen = sessionAccount() ?? current;
      current = chosen && available.includes(chosen) ? chosen : available[0];
      rememberAccount(current);
      const accounts = withCapabilities ? [{ address: current, capabilities: {} }] : [current];
      return { accounts: accounts as never, chainId };
    },
    async disconnect() {
      current = null;
      rememberAccount(null);
    },
    async getAccounts() {
      const account = current ?? sessionAccount();
      return account ? [account] : [];
    },
    async getChainId() {
      return chainId;
    },
    async isAuthorized() {
      // Only a tab that picked an account before reconnects, so a new tab never silently
      // becomes the same player as another one.
      const account = sessionAccount();
      if (!account) return false;
      try {
        return (await listAccounts()).includes(account);
      } catch {
        return false;
      }
    },
    async switchChain({ chainId: target }) {
      const chain = config.chains.find((c) => c.id === target);
      if (target !== chainId || !chain) {
        throw new SwitchChainError(new Error("Dev accounts only exist on the local node."));
      }
      return chain;
    },
    async listAccounts() {
      return listAccounts();
    },
    async selectAccount(account: Address) {
      current = getAddress(account);
      rememberAccount(current);
      config.emitter.emit("change", { accounts: [current] });
    },
    onAccountsChanged(accounts) {
      if (accounts.length === 0) this.onDisconnect();
      else config.emitter.emit("change", { accounts: accounts.map((a) => getAddress(a)) });
    },
    onChainChanged(chain) {
      config.emitter.emit("change", { chainId: Number(chain) });
    },
    onDisconnect() {
      current = null;
      config.emitter.emit("disconnect");
    },
    async getProvider() {
      if (provider) return provider;
      const request = (async ({ method, params }: { method: string; params?: unknown }) => {
        switch (method) {
          case "eth_accounts":
          case "eth_requestAccounts": {
            const account = current ?? sessionAccount();
            return account ? [account] : [];
          }
          case "eth_chainId":
            return numberToHex(chainId);
          case "wallet_switchEthereumChain": {
            const [{ chainId: target }] = params as [{ chainId: string }];
            if (Number(target) !== chainId) {
              throw new SwitchChainError(new Error("Dev accounts only exist on the local node."));
            }
            return null;
          }
          default:
            // eth_sendTransaction included: the node holds the keys and signs.
            return nodeRequest(rpcUrl, method, params);
        }
      }) as EIP1193RequestFn;
      provider = custom({ request })({ retryCount: 0 });
      return provider;
    },
  }));
}
