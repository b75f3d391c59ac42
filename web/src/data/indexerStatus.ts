// The game index's address, its client and its status: whether the configured index follows this
// hall and is ready (useIndexer), and the catch-up that refreshes its reads once it has indexed a
// block the hall watcher saw (useIndexCatchUp). Kept apart from the index's reads (indexer.ts) so
// that the layout can mount the catch-up without loading the leaderboard and history code.
import { useEffect, useRef } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useHall, type Hall, type WatchedBlock } from "@/chain/hall.ts";
import { INDEXER_API_VERSION, type WireStatus } from "@dicehall/core/indexer/indexerWire.ts";
import { queryKeys } from "./queryKeys.ts";

/** The configured index, trimmed and without a trailing slash; null when there is none. */
export function indexerUrl(): string | null {
  const raw = import.meta.env.VITE_INDEXER_URL?.trim();
  return raw ? raw.replace(/\/+$/, "") : null;
}

// ------------------------------------------------------------------ the client

export type IndexerFailure =
  | "unreachable"
  | "timeout"
  | "server"
  | "refused"
  | "bad-answer"
  | "other-hall"
  | "other-version"
  | "catching-up";

/** Why the index can't serve this page; the message completes "The game index at <url> …". */
export class IndexerError extends Error {
  constructor(
    readonly failure: IndexerFailure,
    message: string,
  ) {
    super(message);
    this.name = "IndexerError";
  }
}

export const INDEXER_TIMEOUT_MS = 6_000;
/** How often the status is checked again, so a failed index comes back on its own. */
export const STATUS_INTERVAL_MS = 30_000;

/** GET one JSON document from the index; every failure becomes an IndexerError in words. */
export async function fetchIndexer<T>(
  url: string,
  path: string,
  { signal, timeoutMs = INDEXER_TIMEOUT_MS }: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<T> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const cancel = () => controller.abort();
  signal?.addEventListener("abort", cancel);
  try {
    let response: Response;
    try {
      response = await fetch(`${url}${path}`, {
        signal: controller.signal,
        headers: { accept: "application/json" },
      });
    } catch (error) {
      // A cancelled query (the page moved on) is not the index's fault.
      if (signal?.aborted) throw error;
      if (timedOut)
        throw new IndexerError("timeout", `did not answer within ${timeoutMs / 1000} s`);
      throw new IndexerError("unreachable", "can't be reached");
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      if (timedOut)
        throw new IndexerError("timeout", `did not answer within ${timeoutMs / 1000} s`);
      body = undefined;
      if (response.ok) throw new IndexerError("bad-answer", "sent an answer this app can't read");
    }
    if (!response.ok) {
      const reason =
        typeof (body as { error?: unknown })?.error === "string"
          ? (body as { error: string }).error
          : `HTTP ${response.status}`;
      throw response.status >= 500
        ? new IndexerError("server", `failed to answer (${reason})`)
        : new IndexerError("refused", `refused the request (${reason})`);
    }
    return body as T;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", cancel);
  }
}

/** Why this status means the index can't serve this hall's pages; null when it can. */
export function statusProblem(status: WireStatus, hall: Hall["scope"]): IndexerError | null {
  if (typeof status?.chainId !== "number" || typeof status.hall !== "string") {
    return new IndexerError("bad-answer", "sent an answer this app can't read");
  }
  if (status.version !== INDEXER_API_VERSION) {
    return new IndexerError(
      "other-version",
      `speaks version ${status.version} of its API and this app reads version ${INDEXER_API_VERSION}`,
    );
  }
  if (status.chainId !== hall.chainId || status.hall.toLowerCase() !== hall.hall.toLowerCase()) {
    return new IndexerError(
      "other-hall",
      `follows another hall (${status.hall} on chain ${status.chainId})`,
    );
  }
  if (!status.ready) {
    return new IndexerError(
      "catching-up",
      `is still catching up with the chain${status.block ? ` (at block ${status.block})` : ""}`,
    );
  }
  return null;
}

/** The sentence a page shows when it reads the chain because the index failed. */
export function fallbackNotice(url: string, error: unknown): string {
  const why = error instanceof IndexerError ? error.message : "sent an answer this app can't read";
  return `The game index at ${url} ${why}, so this page reads the chain directly; it may be slower.`;
}

// ------------------------------------------------------------------ the status

export type IndexerState =
  | { mode: "off" }
  | { mode: "checking"; url: string }
  | { mode: "on"; url: string }
  | { mode: "failed"; url: string; notice: string };

/** The status query of the configured index, shared by everything that watches it. */
function statusQuery(hall: Hall | null, url: string | null) {
  return {
    queryKey:
      hall && url ? queryKeys.indexerStatus(hall.scope, url) : queryKeys.idle("indexerStatus"),
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      const answer = await fetchIndexer<WireStatus>(url!, "/api/status", { signal });
      const problem = statusProblem(answer, hall!.scope);
      if (problem) throw problem;
      return answer;
    },
    // Failing fast is the point: the page falls back at once and the interval retries.
    retry: false,
    staleTime: STATUS_INTERVAL_MS,
  } as const;
}

/** Whether the configured index follows this hall and is ready, checked every 30 s. */
export function useIndexer(): IndexerState {
  const hall = useHall();
  const url = indexerUrl();
  const status = useQuery({
    ...statusQuery(hall, url),
    enabled: !!hall && !!url,
    refetchInterval: STATUS_INTERVAL_MS,
  });
  if (!hall || !url) return { mode: "off" };
  if (status.error) return { mode: "failed", url, notice: fallbackNotice(url, status.error) };
  if (status.data) return { mode: "on", url };
  return { mode: "checking", url };
}

/** How often the index's status is asked while it is behind a block the watcher saw. */
export const CATCH_UP_INTERVAL_MS = 500;
/** How long after the watcher's block the catch-up keeps asking (an index that is down stops it). */
export const CATCH_UP_FOR_MS = 30_000;

/**
 * The index follows the chain a poll behind, so the hall watcher's invalidation can reach the
 * index's reads before the index has the event (a finished game would then show only at the
 * reads' own 15 s refresh). Once the watcher has seen a game event in block N, this asks the
 * index's status every half second until it has indexed N, then refreshes every read from the
 * index once. Mounted once, beside the watcher.
 */
export function useIndexCatchUp(): void {
  const hall = useHall();
  const url = indexerUrl();
  const queryClient = useQueryClient();
  const watched = useQuery<WatchedBlock | null>({
    queryKey: hall ? queryKeys.watchedBlock(hall.scope) : queryKeys.idle("watchedBlock"),
    queryFn: () => null,
    // Only the watcher writes it (setQueryData); this only listens.
    enabled: false,
    staleTime: Infinity,
  }).data;
  const status = useQuery({
    ...statusQuery(hall, url),
    enabled: !!hall && !!url && !!watched,
    staleTime: 0,
    // Every half second while the index is behind the watcher's block, for at most 30 s.
    refetchInterval: (query) => {
      if (!watched || Date.now() - watched.seenAt >= CATCH_UP_FOR_MS) return false;
      const at = query.state.data?.block;
      return at != null && BigInt(at) >= watched.block ? false : CATCH_UP_INTERVAL_MS;
    },
  });
  const indexed = status.data?.block == null ? null : BigInt(status.data.block);
  const caughtUp = !!watched && indexed !== null && indexed >= watched.block;
  const refreshedFor = useRef<bigint | null>(null);
  useEffect(() => {
    if (!hall || !url || !watched || !caughtUp || refreshedFor.current === watched.block) return;
    refreshedFor.current = watched.block;
    void queryClient.invalidateQueries({ queryKey: queryKeys.indexedAll(hall.scope, url) });
  }, [hall, url, watched, caughtUp, queryClient]);
}
