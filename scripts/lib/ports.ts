import { createServer } from "node:net";

/** True when nothing listens on host:port (tried by binding it for a moment). */
export function isPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** A port that was free a moment ago. */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen({ host, port: 0 }, () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A port that cannot be bound, with what to do about it. */
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly what: string,
    readonly flag: string,
  ) {
    super(
      `Port ${port} (${what}) is already in use: is another \`npm run dev\` or \`hardhat node\` running? ` +
        `Stop it, or pick another port with ${flag}.`,
    );
  }
}

/** Throws PortInUseError unless host:port is free (port 0 means "any", always fine). */
export async function assertPortFree(
  host: string,
  port: number,
  what: string,
  flag: string,
): Promise<void> {
  if (port !== 0 && !(await isPortFree(host, port))) throw new PortInUseError(port, what, flag);
}
