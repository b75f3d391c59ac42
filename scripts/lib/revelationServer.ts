// The local provider's public revelation service, in the shape of Pyth's Fortuna:
// GET /v1/chains/<chain>/revelations/<sequence> answers {"value":{"data":"<hex>","encoding":"hex"}}
// for a request that is on chain and `revealDelayBlocks` blocks old, and an error status otherwise
// (as Fortuna does), with CORS open so the app in the browser can fetch it. It serves what the
// provider's keeper would reveal, whether or not that keeper is delivering: a request with a
// callback (seen by its V2 `Requested` event, revealed or not) and one without (Entropy's older
// `request`, which has no V2 event: seen while it waits on chain, as Fortuna sees every request), so
// anyone can advance the provider's commitment past a backlog nobody reveals.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Address, Chain, Hex, PublicClient, Transport } from "viem";

import {
  entropyBacklogAbi,
  entropyRequestedEvent,
  revelationBody,
} from "@dicehall/core/contract/revelations.ts";

export interface RevelationServerOptions {
  publicClient: PublicClient<Transport, Chain>;
  entropy: Address;
  provider: Address;
  /** The provider's revelation of a sequence number (from its hash chain); undefined if none. */
  revelationOf: (sequenceNumber: bigint) => Hex | undefined | Promise<Hex | undefined>;
  /** The chain's name in the URL; default "local". */
  chain?: string;
  /** Blocks a request must be deep before its revelation is served (Fortuna's reveal delay). */
  revealDelayBlocks?: number;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
}

export interface RevelationServer {
  /** `<base>/v1/chains/<chain>`: what a deployment names as its revelation service. */
  url: string;
  stop(): Promise<void>;
}

export async function startRevelationServer(o: RevelationServerOptions): Promise<RevelationServer> {
  const { publicClient, entropy, provider, chain = "local", revealDelayBlocks = 1 } = o;
  const host = o.host ?? "127.0.0.1";
  const route = new RegExp(`^/v1/chains/${chain}/revelations/(\\d+)$`);

  /** The block a request of the provider was made in; undefined if it was never made. */
  async function requestBlock(sequenceNumber: bigint): Promise<bigint | undefined> {
    const [requested] = await publicClient.getLogs({
      address: entropy,
      event: entropyRequestedEvent,
      args: { provider, sequenceNumber },
      fromBlock: 0n,
    });
    if (requested !== undefined) return requested.blockNumber;
    // An Entropy without getRequestV2 (a test's mock) has no requests of the older kind.
    const waiting = await publicClient
      .readContract({
        address: entropy,
        abi: entropyBacklogAbi,
        functionName: "getRequestV2",
        args: [provider, sequenceNumber],
      })
      .catch(() => undefined);
    return sequenceNumber !== 0n && waiting?.sequenceNumber === sequenceNumber
      ? waiting.blockNumber
      : undefined;
  }

  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, {
        "content-type": "application/json",
        "access-control-allow-origin": "*",
      });
      res.end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const match = route.exec(path);
    if (req.method !== "GET" || match === null) return send(404, { error: "not found" });
    const sequenceNumber = BigInt(match[1]);
    void (async () => {
      const requestedIn = await requestBlock(sequenceNumber);
      // Fortuna serves a sequence number only once it has been requested on chain, after its delay.
      if (requestedIn === undefined) return send(403, { error: "the request is not on chain" });
      const head = await publicClient.getBlockNumber({ cacheTime: 0 });
      if (head < requestedIn + BigInt(revealDelayBlocks)) {
        return send(403, { error: "the request is not past the reveal delay yet" });
      }
      const revelation = await o.revelationOf(sequenceNumber);
      if (revelation === undefined) return send(404, { error: "no such sequence number" });
      send(200, revelationBody(revelation));
    })().catch((err: unknown) => send(500, { error: String(err) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/v1/chains/${chain}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
