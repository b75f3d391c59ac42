// A browser wallet that asks, for the browser tests: an injected EIP-1193 provider announced through
// EIP-6963 (the way MetaMask, Rabby and Coinbase Wallet appear to the app, not the dev accounts
// connector), which signs in Node with a test key and COUNTS every request a real wallet would
// put in front of its user for a confirmation. A scenario then asserts how many times a player
// would have been asked.
//
// The page side is a few lines (an init script): `request` hands the method and its parameters to
// a Playwright binding, and the Node side answers: reads go to the local node as they are,
// transactions are signed with the key (viem, a local account) and sent as raw transactions, so
// the node's own unlocked-account signing is never used.
import type { BrowserContext, Page } from "playwright-core";
import {
  createWalletClient,
  getAddress,
  http,
  numberToHex,
  type Address,
  type Hex,
  type HDAccount,
} from "viem";
import { mnemonicToAccount } from "viem/accounts";

import { localChain } from "../../../scripts/lib/chain.ts";
import { shortAddress } from "./chain.ts";
import type { Session, TrackedPage } from "./harness.ts";
import type { E2EStack } from "./stack.ts";
import { escapeRegExp } from "./ui.ts";

/** The Hardhat node's own accounts come from its default mnemonic (a public test mnemonic). */
const HARDHAT_MNEMONIC = "test test test test test test test test test test test junk";

/** The requests a real wallet shows its user and waits for a yes. */
export const CONFIRMED_METHODS = [
  "eth_sendTransaction",
  "wallet_sendCalls",
  "personal_sign",
  "eth_signTypedData_v4",
] as const;
type ConfirmedMethod = (typeof CONFIRMED_METHODS)[number];

export interface WalletRequest {
  method: string;
  at: number;
  /** The transactions it sent (eth_sendTransaction: one; wallet_sendCalls: one per call). */
  hashes?: Hex[];
  /** For a transaction: the contract function's selector (first 4 bytes of data), or "transfer". */
  selector?: string;
}

export interface CountingWalletOptions {
  /** The name the wallet announces (the connect dialog lists it). */
  name?: string;
  /** Whether it answers EIP-5792 (wallet_getCapabilities, wallet_sendCalls) with atomic batches. */
  batching?: boolean;
}

/** One wallet for one browser context: its account, and everything it was asked. */
export class CountingWallet {
  readonly requests: WalletRequest[] = [];
  readonly address: Address;
  readonly name: string;
  private readonly account: HDAccount;
  private readonly batches = new Map<string, Hex[]>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Whether the site was given the account (eth_requestAccounts). */
  private connected = false;

  constructor(
    private readonly stack: E2EStack,
    account: HDAccount,
    private readonly options: CountingWalletOptions,
  ) {
    this.account = account;
    this.address = account.address;
    this.name = options.name ?? "Counting Wallet";
  }

  /** How many confirmations the user was asked for (all of CONFIRMED_METHODS). */
  confirmations(): number {
    return this.requests.filter((r) => (CONFIRMED_METHODS as readonly string[]).includes(r.method))
      .length;
  }

  /** Every transaction the wallet sent for the page, in order. */
  sentTransactions(): Hex[] {
    return this.requests.flatMap((r) => r.hashes ?? []);
  }

  /** The confirmations, in order, as "method selector" lines (for an assertion's message). */
  confirmationLog(): string[] {
    return this.requests
      .filter((r) => (CONFIRMED_METHODS as readonly string[]).includes(r.method))
      .map((r) => `${r.method}${r.selector ? ` ${r.selector}` : ""}`);
  }

  /** Installs the provider in every page of `context` (before any of the app's code runs). */
  async install(context: BrowserContext): Promise<void> {
    const binding = `__countingWallet_${this.address.slice(2, 10)}`;
    await context.exposeBinding(binding, (_source, method: string, params: unknown) =>
      this.answer(method, params),
    );
    await context.addInitScript({
      content: pageProvider({
        binding,
        name: this.name,
        uuid: `0f1e2d3c-4b5a-4697-8877-${this.address.slice(2, 14).toLowerCase()}`,
        rdns: "test.dicehall.counting-wallet",
      }),
    });
  }

  /** One request from the page: `{ result }` or `{ error: { code, message } }`. */
  private async answer(method: string, params: unknown) {
    // One at a time, as a wallet's queue of confirmations is: nonces stay in order.
    const run = this.queue.then(() => this.handle(method, params));
    this.queue = run.catch(() => {});
    try {
      return { result: await run };
    } catch (err) {
      const e = err as { code?: number; shortMessage?: string; message?: string; data?: unknown };
      return {
        error: {
          code: typeof e.code === "number" ? e.code : -32603,
          message: e.shortMessage ?? e.message ?? String(err),
          data: e.data,
        },
      };
    }
  }

  private async handle(method: string, params: unknown): Promise<unknown> {
    const list = (params ?? []) as unknown[];
    const record = (selector?: string) => {
      const request: WalletRequest = { method, at: Date.now(), selector };
      this.requests.push(request);
      return request;
    };
    const chainId = this.stack.chain.chainId;
    switch (method) {
      // As a real wallet: no account for a site until the user connects it, then (reloads
      // included) the account.
      case "eth_accounts":
        return this.connected ? [this.address] : [];
      case "eth_requestAccounts":
        this.connected = true;
        return [this.address];
      case "eth_chainId":
        return numberToHex(chainId);
      case "net_version":
        return String(chainId);
      case "wallet_requestPermissions":
        this.connected = true;
        return [{ parentCapability: "eth_accounts", caveats: [] }];
      case "wallet_getPermissions":
        return this.connected ? [{ parentCapability: "eth_accounts", caveats: [] }] : [];
      case "wallet_revokePermissions":
        this.connected = false;
        return null;
      case "wallet_switchEthereumChain": {
        const [{ chainId: wanted }] = list as [{ chainId: string }];
        if (Number(wanted) !== chainId) {
          throw Object.assign(new Error(`This wallet only knows chain ${chainId}.`), {
            code: 4902,
          });
        }
        return null;
      }
      case "wallet_getCapabilities":
        if (!this.options.batching) {
          throw Object.assign(new Error("wallet_getCapabilities is not supported"), {
            code: 4200,
          });
        }
        return { [numberToHex(chainId)]: { atomic: { status: "supported" } } };
      case "eth_sendTransaction": {
        const [tx] = list as [TxParams];
        const request = record(selectorOf(tx));
        const hash = await this.send(tx);
        request.hashes = [hash];
        return hash;
      }
      case "wallet_sendCalls": {
        if (!this.options.batching) {
          throw Object.assign(new Error("wallet_sendCalls is not supported"), { code: 4200 });
        }
        const [batch] = list as [{ calls: TxParams[] }];
        const request = record(batch.calls.map(selectorOf).join("+"));
        const hashes: Hex[] = [];
        request.hashes = hashes;
        for (const call of batch.calls) hashes.push(await this.send(call));
        const id = `0x${hashes[hashes.length - 1].slice(2, 66).padStart(64, "0")}`;
        this.batches.set(id, hashes);
        return { id };
      }
      case "wallet_getCallsStatus": {
        const [id] = list as [string];
        const hashes = this.batches.get(id);
        if (!hashes) throw Object.assign(new Error("unknown batch"), { code: 5730 });
        const receipts = [];
        for (const hash of hashes) {
          const receipt = await this.stack.publicClient
            .getTransactionReceipt({ hash })
            .catch(() => null);
          if (!receipt) {
            return {
              version: "2.0.0",
              id,
              chainId: numberToHex(chainId),
              status: 100,
              atomic: true,
            };
          }
          receipts.push({
            logs: receipt.logs.map((l) => ({ address: l.address, data: l.data, topics: l.topics })),
            status: receipt.status === "success" ? "0x1" : "0x0",
            blockHash: receipt.blockHash,
            blockNumber: numberToHex(receipt.blockNumber),
            gasUsed: numberToHex(receipt.gasUsed),
            transactionHash: receipt.transactionHash,
          });
        }
        const ok = receipts.every((r) => r.status === "0x1");
        return {
          version: "2.0.0",
          id,
          chainId: numberToHex(chainId),
          status: ok ? 200 : 500,
          atomic: true,
          receipts,
        };
      }
      case "personal_sign": {
        record();
        const [message] = list as [Hex];
        return this.account.signMessage({ message: { raw: message } });
      }
      case "eth_signTypedData_v4": {
        record();
        const [, json] = list as [string, string];
        return this.account.signTypedData(JSON.parse(json) as never);
      }
      case "eth_sign":
      case "eth_signTransaction":
        throw Object.assign(new Error(`${method} is not offered by this wallet`), { code: 4200 });
      default:
        return this.node(method, list);
    }
  }

  /** Signs `tx` with the key and sends it raw; the nonce is the node's pending count. */
  private async send(tx: TxParams): Promise<Hex> {
    if (tx.from && getAddress(tx.from) !== this.address) {
      throw Object.assign(new Error(`asked to send from ${tx.from}, not this wallet's account`), {
        code: 4100,
      });
    }
    const chain = localChain(this.stack.rpcUrl, this.stack.chain.chainId);
    const client = createWalletClient({
      account: this.account,
      chain,
      transport: http(this.stack.rpcUrl, { retryCount: 0 }),
    });
    return client.sendTransaction({
      to: tx.to ? getAddress(tx.to) : undefined,
      data: tx.data ?? tx.input,
      value: tx.value ? BigInt(tx.value) : undefined,
      gas: tx.gas ? BigInt(tx.gas) : undefined,
    } as never);
  }

  /** Anything else goes to the node as it is (reads, estimates, receipts). */
  private async node(method: string, params: unknown[]): Promise<unknown> {
    const request = this.stack.publicClient.request as unknown as (args: {
      method: string;
      params: unknown[];
    }) => Promise<unknown>;
    return request({ method, params });
  }
}

interface TxParams {
  from?: string;
  to?: string;
  data?: Hex;
  input?: Hex;
  value?: string;
  gas?: string;
}

function selectorOf(tx: TxParams): string {
  const data = tx.data ?? tx.input;
  return data && data.length >= 10 ? data.slice(0, 10) : "transfer";
}

/** The key of the node's account `address` (derived from the Hardhat mnemonic). */
export function devAccountKey(address: Address): HDAccount {
  for (let i = 0; i < 40; i++) {
    const account = mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex: i });
    if (account.address === getAddress(address)) return account;
  }
  throw new Error(`${address} is not one of the Hardhat mnemonic's first 40 accounts`);
}

/**
 * A counting wallet for the node's account `index`, installed in `context` (call before the page
 * loads the app).
 */
export async function countingWallet(
  stack: E2EStack,
  context: BrowserContext,
  index: number,
  options: CountingWalletOptions = {},
): Promise<CountingWallet> {
  const wallet = new CountingWallet(stack, devAccountKey(stack.accounts[index]), options);
  await wallet.install(context);
  return wallet;
}

/**
 * The page side, run in the page before the app: an EIP-1193 provider whose every request goes to
 * the Node binding, announced through EIP-6963 (and again whenever the app asks). Plain JavaScript
 * in a string: a function passed to Playwright would be serialised after tsx compiled it, with
 * helper calls (`__name`) that do not exist in the page.
 */
function pageProvider(config: { binding: string; name: string; uuid: string; rdns: string }) {
  const icon =
    "data:image/svg+xml;base64," +
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#345"/></svg>',
    ).toString("base64");
  return `(() => {
  const config = ${JSON.stringify({ ...config, icon })};
  const call = window[config.binding];
  const listeners = new Map();
  const provider = {
    async request({ method, params }) {
      const answer = await call(method, params ?? []);
      if (answer.error) {
        const error = new Error(answer.error.message);
        error.code = answer.error.code;
        error.data = answer.error.data;
        throw error;
      }
      return answer.result;
    },
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(listener);
      return provider;
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener);
      return provider;
    },
  };
  const info = Object.freeze({ uuid: config.uuid, name: config.name, icon: config.icon, rdns: config.rdns });
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }),
    );
  window.addEventListener("eip6963:requestProvider", announce);
  announce();
})();`;
}

/**
 * Opens `path` in a new tab whose browser has a counting wallet for the node's account `index`,
 * and connects it through the header's "Connect wallet" dialog, where it is listed among the
 * wallets in this browser (as any EIP-6963 wallet is).
 */
export async function openWithWallet(
  session: Session,
  label: string,
  index: number,
  path = "/games",
  options: CountingWalletOptions = {},
): Promise<{ tracked: TrackedPage; wallet: CountingWallet }> {
  const tracked = await session.newPage(label);
  const wallet = await countingWallet(session.stack, tracked.context, index, options);
  await session.goto(tracked, path);
  await connectWallet(tracked.page, wallet);
  return { tracked, wallet };
}

/** Connects `wallet` through the header's dialog; waits for the header to name its account. */
export async function connectWallet(page: Page, wallet: CountingWallet): Promise<void> {
  await page.getByRole("button", { name: "Connect wallet" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect a wallet" });
  await dialog.getByRole("button", { name: wallet.name }).click();
  await dialog.waitFor({ state: "detached" });
  await page
    .getByRole("banner")
    .getByRole("button", { name: new RegExp(escapeRegExp(shortAddress(wallet.address))) })
    .waitFor();
}
