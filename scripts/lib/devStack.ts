// The local system: a Hardhat node (fresh chain every start), Pyth's MockEntropy, Test USD and
// DiceHall deployed by Ignition, the entropy keeper, the indexer and the web app's dev server.
// `npm run dev` (scripts/dev.ts) and the tests start it through startDevStack().
//
// Everything runs in-process on purpose, so nothing is left behind when the process ends,
// however it ends. The one exception is the indexer (Ponder is a CLI with process-wide state):
// it is a child process that ends itself when this one is gone (scripts/lib/orphanGuard.mjs).
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import hre, { network } from "hardhat";
import type { JsonRpcServer, NetworkConnection } from "hardhat/types/network";
import type { ViteDevServer } from "vite";
import { getAddress, type Address } from "viem";

import { randomBytes } from "node:crypto";
import { toHex, type Hex } from "viem";
import LocalDiceHallModule, {
  LOCAL_ENTROPY_PROVIDER,
  LocalModelDiceHallModule,
  MODEL_PROVIDER_ACCOUNT,
} from "../../ignition/modules/LocalDiceHall.ts";
import { clients, nodeAccounts } from "./chain.ts";
import { hashChain } from "./entropyModel.ts";
import { startHallKeeper, type HallKeeper } from "./hallKeeper.ts";
import { startRevelationServer, type RevelationServer } from "./revelationServer.ts";
import {
  DEPLOYMENTS_FILE,
  IGNITION_DEPLOYMENTS_DIR,
  LOCAL_CHAIN_ID,
  ROOT,
  collectDeployments,
  readIgnitionDeployment,
  writeDeployments,
  type Deployment,
} from "./deployments.ts";
import {
  DEFAULT_INDEXER_PORT,
  startIndexer,
  type Indexer,
  type IndexerOptions,
} from "./indexer.ts";
import { DEFAULT_REVEAL_DELAY_MS, startKeeper, type Keeper } from "./keeper.ts";
import { NodeRefusals } from "./nodeRefusals.ts";
import { assertPortFree, freePort } from "./ports.ts";

export { PortInUseError } from "./ports.ts";

export const DEFAULT_RPC_PORT = 8545;
export const DEFAULT_WEB_PORT = 5173;
const WEB_ROOT = join(ROOT, "web");
const RPC_PORT_ROLE = "the chain's JSON-RPC";
const WEB_PORT_ROLE = "the web app";
const INDEXER_PORT_ROLE = "the indexer's HTTP API";
/** The model provider's hash chain: this many requests a session (a long simulation makes ~2 000). */
const MODEL_CHAIN_LENGTH = 10_000;
const MODEL_PROVIDER_FEE = 2_000_000_000n;
/**
 * A block every this many ms even when no transaction comes, as on Base (2 s). A real chain's clock
 * moves on its own; a node that mines only on transactions leaves a roll's request the last block,
 * so the revelation service (which serves a request once a block follows it) and the hall's keeper
 * (which reads time from the latest block) would wait for someone else's move (issue 32).
 */
export const DEFAULT_BLOCK_INTERVAL_MS = 2_000;

export interface DevStackOptions {
  host?: string;
  /** 0 picks a free port. */
  rpcPort?: number;
  /** 0 picks a free port. */
  webPort?: number;
  /** Start the web app's dev server (default true). */
  web?: boolean;
  /** Start the entropy keeper (default true). */
  keeper?: boolean;
  /**
   * Start the indexer on an embedded PGlite database and point the web app at it (default
   * false: `npm run dev` turns it on; most tests do not need it).
   */
  indexer?: boolean;
  /** 0 picks a free port; default 42069. */
  indexerPort?: number;
  /** The indexer on Postgres instead of PGlite (tests of the production setup). */
  indexerPostgres?: { url: string; schema: string };

  keeperDelayMs?: number;
  /**
   * Empty blocks every this many ms besides the block each transaction gets at once (default
   * DEFAULT_BLOCK_INTERVAL_MS; 0: blocks only on transactions).
   */
  blockIntervalMs?: number;
  /**
   * Which Entropy the hall asks: our model (`"model"`: a provider on a hash chain, numbers delivered
   * with `revealWithCallback`, a revelation service in Fortuna's shape, the hall's keeper) or Pyth's
   * MockEntropy (`"mock"`, the default: `mockReveal`). `npm run dev` uses the model.
   */
  entropy?: "mock" | "model";
  /** On the model: run the hall's keeper too (default true). */
  hallKeeper?: boolean;
  /**
   * Ignition deployment id; default `chain-31337`, the folder the other scripts read. Stacks
   * started by tests use their own id (`devstack-<name>-<pid>`) so that they never touch a
   * running `npm run dev`; that folder is removed as soon as the deployment is read.
   */
  deploymentId?: string;
  /** Where the app's deployments file is written; null writes none. */
  deploymentsFile?: string | null;
  log?: (line: string) => void;
}

export interface DevStack {
  rpcUrl: string;
  /** Undefined when started without the web app. */
  webUrl?: string;
  /** The indexer's HTTP API; undefined when started without it. */
  indexerUrl?: string;
  indexer?: Indexer;
  chainId: number;
  addresses: {
    diceHall: Address;
    /** MockEntropy, or the Entropy model when `entropy` is "model". */
    mockEntropy: Address;
    testToken: Address;
    entropyProvider: Address;
  };
  entropy: "mock" | "model";
  /** On the model: the provider's revelation service, `<base>/v1/chains/local`. */
  revelations?: string;
  /** On the model: the provider's revelation of a request (for a keeper started elsewhere). */
  revelationOf?: (provider: Address, sequenceNumber: bigint) => Hex | undefined;
  hallKeeper?: HallKeeper;
  deployment: Deployment;
  /** The node's unlocked accounts; the first ten hold Test USD, the last one sends reveals. */
  accounts: Address[];
  keeper?: Keeper;
  keeperDelayMs: number;
  /** Ms between the chain's own blocks (0: blocks only on transactions). */
  blockIntervalMs: number;
  /** The requests the node answered with an error, latest 200 (a test's failure says them). */
  nodeRefusals: NodeRefusals;
  stop(): Promise<void>;
}

/** The web app's sources are missing: the stack can still start with `web: false`. */
export class WebAppMissingError extends Error {
  constructor() {
    super(
      "The web app is not there yet (web/index.html is missing), so there is nothing to serve. " +
        "Start the chain, contracts and keeper without it: `npm run dev -- --no-web`.",
    );
  }
}

/** What an indexer of the stack's chain and hall needs to know of them (see startIndexer). */
export function stackIndexer(
  stack: DevStack,
): Pick<IndexerOptions, "rpcUrl" | "chainId" | "hall" | "startBlock"> {
  return {
    rpcUrl: stack.rpcUrl,
    chainId: stack.chainId,
    hall: stack.addresses.diceHall,
    startBlock: stack.deployment.deploymentBlock,
  };
}

export async function startDevStack(options: DevStackOptions = {}): Promise<DevStack> {
  const {
    host = "127.0.0.1",
    web = true,
    keeper: withKeeper = true,
    indexer: withIndexer = false,
    keeperDelayMs = DEFAULT_REVEAL_DELAY_MS,
    blockIntervalMs = DEFAULT_BLOCK_INTERVAL_MS,
    deploymentId = `chain-${LOCAL_CHAIN_ID}`,
    deploymentsFile = DEPLOYMENTS_FILE,
    entropy: entropyKind = "mock",
    log = () => {},
  } = options;
  const onModel = entropyKind === "model";
  const rpcPort = options.rpcPort ?? DEFAULT_RPC_PORT;
  const webPortWanted = options.webPort ?? DEFAULT_WEB_PORT;
  const indexerPort = options.indexerPort ?? DEFAULT_INDEXER_PORT;

  // Everything that can be refused is checked before anything starts.
  if (web && !existsSync(join(WEB_ROOT, "index.html"))) throw new WebAppMissingError();
  await assertPortFree(host, rpcPort, RPC_PORT_ROLE, "--rpc-port");
  if (web) await assertPortFree(host, webPortWanted, WEB_PORT_ROLE, "--web-port");
  if (withIndexer) await assertPortFree(host, indexerPort, INDEXER_PORT_ROLE, "--indexer-port");

  const cleanups: (() => Promise<void>)[] = [];
  const stop = async () => {
    // Last started, first stopped; one failing step does not keep the others running.
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((err: unknown) => log(`while stopping: ${String(err)}`));
    }
  };

  // What the node refuses is kept for a failing test to print; the hook is this stack's only.
  const nodeRefusals = new NodeRefusals();
  const refusalHandler = nodeRefusals.handler("node");
  hre.hooks.registerHandlers("network", refusalHandler);
  cleanups.push(async () => hre.hooks.unregisterHandlers("network", refusalHandler));

  try {
    // The node: a fresh in-memory chain, served over HTTP and WebSocket.
    // Blocks may share a second: otherwise each block is stamped a second after the last, and a
    // burst of moves (the simulator) runs the chain's clock ahead of the wall clock.
    // Mining: automine (each transaction in its own block at once, so a move is as quick as ever
    // and receipts never wait for a tick) and interval mining together (a block every
    // blockIntervalMs when nothing happens, so the chain's clock moves as on a real chain: a
    // roll's request gets a block after it, a stalled roll reaches its "stalled" time).
    const server: JsonRpcServer = await network.createServer(
      {
        network: "node",
        chainType: "l1",
        override: {
          allowBlocksWithSameTimestamp: true,
          mining: { auto: true, interval: blockIntervalMs > 0 ? blockIntervalMs : 0 },
        },
      },
      host,
      rpcPort,
    );
    const listening = await server.listen();
    cleanups.push(() => server.close());
    const rpcUrl = `http://${host}:${listening.port}`;
    const blocks =
      blockIntervalMs > 0
        ? `a block every ${blockIntervalMs / 1000} s and one per transaction`
        : "a block per transaction only";
    log(`chain: Hardhat node on ${rpcUrl} (chain ${LOCAL_CHAIN_ID}, fresh state, ${blocks})`);

    // The contracts. The chain is new, so any earlier deployment state of this id is void.
    const deploymentDir = join(IGNITION_DEPLOYMENTS_DIR, deploymentId);
    const ownFolder = deploymentId !== `chain-${LOCAL_CHAIN_ID}`;
    rmSync(deploymentDir, { recursive: true, force: true });
    if (ownFolder) {
      cleanups.push(async () => rmSync(deploymentDir, { recursive: true, force: true }));
    }
    const connection: NetworkConnection<"l1"> = await network.create({
      network: "localhost",
      chainType: "l1",
      override: { url: rpcUrl },
    });
    cleanups.push(() => connection.close());
    if (onModel) await connection.ignition.deploy(LocalModelDiceHallModule, { deploymentId });
    else await connection.ignition.deploy(LocalDiceHallModule, { deploymentId });
    const deployment = readIgnitionDeployment(deploymentDir);
    const { testToken } = deployment ?? {};
    const mockEntropy = onModel ? deployment?.entropy : deployment?.mockEntropy;
    if (deployment === undefined || mockEntropy === undefined || testToken === undefined) {
      throw new Error(`Ignition wrote no complete LocalDiceHall deployment to ${deploymentDir}`);
    }
    const { publicClient } = clients(rpcUrl);
    const accounts = await nodeAccounts(publicClient);
    let provider = getAddress(LOCAL_ENTROPY_PROVIDER);
    let revelationOf: ((p: Address, seq: bigint) => Hex | undefined) | undefined;
    let revelationServer: RevelationServer | undefined;
    if (onModel) {
      // The provider registers a fresh hash chain (its secret: the seed) before anyone plays.
      provider = accounts[MODEL_PROVIDER_ACCOUNT];
      const values = hashChain(toHex(randomBytes(32)), MODEL_CHAIN_LENGTH);
      const model = await connection.viem.getContractAt("EntropyModel", mockEntropy);
      const asProvider = { account: provider };
      for (const hash of [
        await model.write.register(
          [MODEL_PROVIDER_FEE, values[0], "0x", BigInt(values.length), "0x"],
          asProvider,
        ),
        await model.write.setDefaultGasLimit([100_000], asProvider),
      ]) {
        await publicClient.waitForTransactionReceipt({ hash });
      }
      revelationOf = (p, seq) =>
        getAddress(p) === provider && seq > 0n && seq < BigInt(values.length)
          ? values[Number(seq)]
          : undefined;
      revelationServer = await startRevelationServer({
        publicClient,
        entropy: mockEntropy,
        provider,
        revelationOf: (seq) => revelationOf!(provider, seq),
        host,
      });
      cleanups.push(() => revelationServer!.stop());
      log(
        `entropy: our Entropy model, provider ${provider}; revelations at ${revelationServer.url}`,
      );
      deployment.revelations = revelationServer.url;
    }
    log(`contracts: DiceHall ${deployment.diceHall} (block ${deployment.deploymentBlock})`);
    // A test's folder has served its purpose once read; gone now, it cannot be left behind.
    if (ownFolder) rmSync(deploymentDir, { recursive: true, force: true });

    if (deploymentsFile !== null) {
      // Real networks' deployments stay in the file; the local entry is this chain's.
      writeDeployments(
        { ...collectDeployments(), [String(LOCAL_CHAIN_ID)]: deployment },
        deploymentsFile,
      );
    }

    let keeper: Keeper | undefined;
    if (withKeeper) {
      keeper = startKeeper({
        rpcUrl,
        mockEntropy,
        revelationOf,
        fromBlock: BigInt(deployment.deploymentBlock),
        revealDelayMs: keeperDelayMs,
        log: (line) => log(`keeper: ${line}`),
      });
      cleanups.push(() => keeper!.stop());
    }

    let hallKeeper: HallKeeper | undefined;
    if (onModel && options.hallKeeper !== false) {
      hallKeeper = startHallKeeper({
        publicClient,
        wallet: clients(rpcUrl).wallet(accounts[MODEL_PROVIDER_ACCOUNT - 1]),
        hall: deployment.diceHall,
        fromBlock: BigInt(deployment.deploymentBlock),
        revelations: revelationServer?.url,
        log: (line) => log(`hall keeper: ${line}`),
      });
      cleanups.push(() => hallKeeper!.stop());
    }

    let indexer: Indexer | undefined;
    if (withIndexer) {
      log(
        `indexer: starting (Ponder on ${options.indexerPostgres ? "Postgres" : "an embedded PGlite database"})`,
      );
      indexer = await startIndexer({
        host,
        port: indexerPort,
        rpcUrl,
        chainId: LOCAL_CHAIN_ID,
        hall: deployment.diceHall,
        startBlock: deployment.deploymentBlock,
        // The chain is new, so is its index. A test's stack has its own folder, removed after.
        dataDir: join(ROOT, ".dev", ownFolder ? `indexer-${deploymentId}` : "indexer"),
        removeOnStop: ownFolder,
        postgres: options.indexerPostgres,
        log: (line) => log(`indexer: ${line}`),
      });
      cleanups.push(() => indexer!.stop());
      log(`indexer: ${indexer.url}`);
    }

    let webUrl: string | undefined;
    if (web) {
      const vite = await startWeb(
        host,
        webPortWanted === 0 ? await freePort(host) : webPortWanted,
        rpcUrl,
        indexer?.url,
      );
      cleanups.push(() => vite.close());
      webUrl = `http://${host}:${vite.config.server.port}`;
    }

    return {
      rpcUrl,
      webUrl,
      indexerUrl: indexer?.url,
      indexer,
      chainId: LOCAL_CHAIN_ID,
      addresses: {
        diceHall: deployment.diceHall,
        mockEntropy,
        testToken,
        entropyProvider: provider,
      },
      entropy: entropyKind,
      revelations: revelationServer?.url,
      revelationOf,
      hallKeeper,
      deployment,
      accounts,
      keeper,
      keeperDelayMs,
      blockIntervalMs,
      nodeRefusals,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * Vite on web/ with the app's own vite.config.ts, pointed at this chain and indexer. The app reads
 * `import.meta.env.VITE_RPC_URL`, `VITE_CHAIN_ID` and `VITE_INDEXER_URL`; vite picks them up from
 * the environment.
 */
async function startWeb(
  host: string,
  port: number,
  rpcUrl: string,
  indexerUrl: string | undefined,
): Promise<ViteDevServer> {
  process.env.VITE_RPC_URL = rpcUrl;
  process.env.VITE_CHAIN_ID = String(LOCAL_CHAIN_ID);
  if (indexerUrl) process.env.VITE_INDEXER_URL = indexerUrl;
  else delete process.env.VITE_INDEXER_URL;
  const { createServer } = await import("vite");
  const vite = await createServer({
    root: WEB_ROOT,
    clearScreen: false,
    logLevel: "warn",
    server: { host, port, strictPort: true, open: false },
  });
  try {
    await vite.listen();
  } catch (err) {
    await vite.close();
    throw err;
  }
  return vite;
}
