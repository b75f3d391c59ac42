// Small viem helpers shared by the dev stack, the keeper, the simulator and the tests.
import {
  BaseError,
  HttpRequestError,
  TimeoutError,
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
  type Address,
  type PublicClient,
  type WalletClient,
  type Chain,
  type Transport,
  type Account,
} from "viem";

export const DEV_ACCOUNT_COUNT = 20;

/** The local Hardhat chain at `rpcUrl` (id 31337 unless told otherwise). */
export function localChain(rpcUrl: string, id = 31337): Chain {
  return defineChain({
    id,
    name: id === 31337 ? "Hardhat (local)" : `Chain ${id}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/**
 * Clients that fail fast instead of retrying on their own: the callers decide how to wait for a
 * node that is down (the keeper backs off, a test fails with a clear message).
 */
export function clients(rpcUrl: string, chainId = 31337, options: { retryCount?: number } = {}) {
  const chain = localChain(rpcUrl, chainId);
  // No retries by default: a script that sends a transaction twice would play a move twice.
  const transport = http(rpcUrl, { retryCount: options.retryCount ?? 0, timeout: 10_000 });
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 });
  return {
    chain,
    publicClient: publicClient as PublicClient<Transport, Chain>,
    /** A wallet client for one of the node's unlocked accounts (eth_sendTransaction). */
    wallet: (account: Address): WalletClient<Transport, Chain, Account> =>
      createWalletClient({ chain, transport, account }),
  };
}

/** True when `err` says the node could not be reached (as opposed to a revert or a bad call). */
export function isUnreachable(err: unknown): boolean {
  if (err instanceof BaseError) {
    return err.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError) !== null;
  }
  return false;
}

/** The node's answer to `eth_accounts`, checksummed. */
export async function nodeAccounts(publicClient: PublicClient): Promise<Address[]> {
  const request = publicClient.request as (args: { method: "eth_accounts" }) => Promise<Address[]>;
  return (await request({ method: "eth_accounts" })).map((account) => getAddress(account));
}

/**
 * Mines `count` empty blocks one by one (Hardhat node only): after a batch of games, it puts them
 * all past the blocks Ponder treats as not yet final (the last 30 on a local chain).
 */
export async function mineEmptyBlocks(publicClient: PublicClient, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await publicClient.request({ method: "evm_mine" as never, params: [] as never });
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Polls `probe` until it returns something other than undefined; throws `what` after `timeoutMs`.
 * Tests and scripts use this instead of fixed sleeps.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  { timeoutMs = 30_000, intervalMs = 50 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

export const shortAddress = (a: string): string => `${a.slice(0, 6)}…${a.slice(-4)}`;

/** The first line of an error, without viem's long "Request Arguments" tail. */
export function errorLine(err: unknown): string {
  if (err instanceof BaseError) return err.shortMessage;
  return err instanceof Error ? err.message.split("\n")[0] : String(err);
}
