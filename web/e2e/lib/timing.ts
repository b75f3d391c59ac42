// How long the browser suite is willing to wait. Every wait in the suite is for a state (an element
// on the page, a value on the chain) and ends as soon as that state is there, so these bounds only
// matter when something is wrong: they are where a slow step becomes a hang. They are sized for a
// loaded 2-CPU machine (Chromium, the Hardhat node, the keeper and other people's work sharing the
// CPUs), where a step can take ten times as long as on an idle one. E2E_TIMEOUT_SCALE multiplies
// them all: 2 on a slower machine, 0.5 to see a hang sooner on a fast one.

function scaleFromEnv(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 1;
  const scale = Number(raw);
  if (!Number.isFinite(scale) || scale <= 0) {
    throw new Error(`E2E_TIMEOUT_SCALE must be a positive number, not "${raw}"`);
  }
  return scale;
}

export const TIMEOUT_SCALE = scaleFromEnv(process.env.E2E_TIMEOUT_SCALE);

export function scaled(ms: number): number {
  return Math.round(ms * TIMEOUT_SCALE);
}

/** One thing on a page: an element to appear, a click to land, a page to load. */
export const PAGE_TIMEOUT_MS = scaled(45_000);

/** A move: a simulation, a transaction, the keeper's reveal and the app's next poll (1 s). */
export const MOVE_TIMEOUT_MS = scaled(90_000);

/** The system under test: contracts build, Hardhat node, deployment, vite build and preview. */
export const STACK_START_TIMEOUT_MS = scaled(5 * 60_000);

/** Saving a failure's screenshot and page snapshot; short, the page may be what hangs. */
export const ARTIFACT_TIMEOUT_MS = scaled(15_000);
