// The indexer's chain and contract. One indexer follows one DiceHall deployment on one chain;
// docs/OPERATORS.md ("Indexer") lists the variables. Defaults fit `npm run dev`.
import { createConfig } from "ponder";
import { http } from "viem";
import { diceHallAbi } from "@dicehall/core/generated/abis.ts";
import { currentSettings } from "./src/settings.ts";

const settings = currentSettings();

export default createConfig({
  database: settings.databaseUrl
    ? { kind: "postgres", connectionString: settings.databaseUrl }
    : { kind: "pglite", directory: settings.pgliteDir },
  chains: {
    [settings.chainName]: {
      id: settings.chainId,
      // viem stops reading an answer at 10 MB; a range of busy blocks' logs can be more.
      rpc: http(settings.rpcUrl, { maxResponseBodySize: 64 * 1024 * 1024 }),
      pollingInterval: settings.pollingMs,
      // A local chain is new every `npm run dev`: a cache of its blocks would outlive it.
      disableCache: settings.local,
      ...(settings.logRange ? { ethGetLogsBlockRange: settings.logRange } : {}),
    },
  },
  contracts: {
    DiceHall: {
      chain: settings.chainName,
      abi: diceHallAbi,
      address: settings.hall,
      startBlock: settings.startBlock,
    },
  },
});
