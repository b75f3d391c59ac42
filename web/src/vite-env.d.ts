/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** JSON-RPC URL of the local Hardhat node (the dev stack sets it). */
  readonly VITE_RPC_URL?: string;
  /** Enables WalletConnect; its SDK is only loaded when this is set. */
  readonly VITE_WALLETCONNECT_PROJECT_ID?: string;
  /** An Ethereum mainnet RPC for ENS names; without it no ENS lookups happen. */
  readonly VITE_MAINNET_RPC_URL?: string;
  /**
   * Base URL of the game index (the Ponder indexer's HTTP API, e.g. http://127.0.0.1:42069). When
   * set, the leaderboard, history and replays read from it and fall back to scanning the chain's
   * logs in the browser if it fails; unset, they always scan.
   */
  readonly VITE_INDEXER_URL?: string;
  /** Per-chain RPC overrides, e.g. VITE_RPC_URL_8453 for Base. */
  readonly [key: `VITE_RPC_URL_${number}`]: string | undefined;
}
