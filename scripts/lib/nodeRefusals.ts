// What the local node said no to. Every JSON-RPC request of the in-process Hardhat node runs
// through Hardhat's `network.onRequest` hook chain; this handler keeps the last requests that the
// node answered with an error (method, a short form of the parameters, code and message), so a
// test that waits in vain for a transaction can say what the node answered instead.
import type { HookContext } from "hardhat/types/hooks";
import type { NetworkConnection } from "hardhat/types/network";
import type { JsonRpcRequest, JsonRpcResponse } from "hardhat/types/providers";

export interface NodeRefusal {
  /** Date.now() when the answer came. */
  at: number;
  method: string;
  /** The parameters as JSON, cut to `PARAMS_CHARS`. */
  params: string;
  code: number | undefined;
  message: string;
}

const PARAMS_CHARS = 400;
const MESSAGE_CHARS = 400;

function cut(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars)}…` : text;
}

/** The code and message of a failed response or a thrown provider error; undefined when it succeeded. */
export function refusalOf(outcome: {
  response?: JsonRpcResponse;
  thrown?: unknown;
}): { code: number | undefined; message: string } | undefined {
  if (outcome.thrown !== undefined) {
    const err = outcome.thrown as { code?: unknown; message?: unknown };
    return {
      code: typeof err?.code === "number" ? err.code : undefined,
      message: typeof err?.message === "string" ? err.message : String(outcome.thrown),
    };
  }
  const response = outcome.response;
  if (response !== undefined && "error" in response) {
    return { code: response.error.code, message: response.error.message };
  }
  return undefined;
}

export class NodeRefusals {
  readonly #kept: NodeRefusal[] = [];

  constructor(readonly capacity = 200) {}

  record(request: JsonRpcRequest, refusal: { code: number | undefined; message: string }): void {
    let params: string;
    try {
      params = JSON.stringify(request.params ?? []);
    } catch {
      params = "(not JSON)";
    }
    this.#kept.push({
      at: Date.now(),
      method: request.method,
      params: cut(params, PARAMS_CHARS),
      code: refusal.code,
      message: cut(refusal.message.replace(/\s+/g, " ").trim(), MESSAGE_CHARS),
    });
    if (this.#kept.length > this.capacity) this.#kept.splice(0, this.#kept.length - this.capacity);
  }

  /** The refusals kept from `since` (Date.now()) on, oldest first. */
  since(since = 0): NodeRefusal[] {
    return this.#kept.filter((r) => r.at >= since);
  }

  /**
   * The `network.onRequest` handler that records the refusals of connections to `networkName`
   * (the node's own connection, not the clients that reach it over HTTP).
   */
  handler(networkName: string) {
    return {
      onRequest: async <ChainTypeT extends string>(
        context: HookContext,
        connection: NetworkConnection<ChainTypeT>,
        request: JsonRpcRequest,
        next: (
          nextContext: HookContext,
          nextConnection: NetworkConnection<ChainTypeT>,
          nextRequest: JsonRpcRequest,
        ) => Promise<JsonRpcResponse>,
      ): Promise<JsonRpcResponse> => {
        if (connection.networkName !== networkName) return next(context, connection, request);
        let response: JsonRpcResponse;
        try {
          response = await next(context, connection, request);
        } catch (thrown) {
          this.record(request, refusalOf({ thrown })!);
          throw thrown;
        }
        const refusal = refusalOf({ response });
        if (refusal !== undefined) this.record(request, refusal);
        return response;
      },
    };
  }
}

/** One line per refusal, for a test's failure message. */
export function describeRefusals(refusals: readonly NodeRefusal[], since: number): string[] {
  return refusals.map(
    (r) =>
      `+${((r.at - since) / 1000).toFixed(1)}s ${r.method} → ${r.code ?? "?"} ${r.message}  (params ${r.params})`,
  );
}
