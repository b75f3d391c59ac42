// `npm run dev`'s first step, the contracts' build, in words: how long it takes (the first build,
// or one after a contract changes, runs solc's JavaScript build through the IR pipeline: about a
// minute and a half; a build with nothing to do takes seconds), that it is still going (a line
// every 15 s), and what the compiler's transient-storage warnings are about.

/** What the compiler's warning 2394 points at, and why it is safe here. */
export const TRANSIENT_STORAGE_NOTE =
  "the compiler's transient-storage warnings (2394) are about OpenZeppelin's TransientSlot, the hall's " +
  "reentrancy guard, which clears its slot at the end of every call: the safe use the warning names";

export async function buildContracts({
  build,
  built,
  say,
  intervalMs = 15_000,
  now = Date.now,
}: {
  /** Runs Hardhat's build. */
  build: () => Promise<unknown>;
  /** Whether an earlier build's artifacts are there (then nothing may need compiling). */
  built: boolean;
  say: (line: string) => void;
  intervalMs?: number;
  now?: () => number;
}): Promise<void> {
  say(
    built
      ? "building contracts: seconds when nothing changed, about a minute and a half after a contract changes"
      : "building contracts for the first time: about a minute and a half (solc's JavaScript build, IR pipeline)",
  );
  say(TRANSIENT_STORAGE_NOTE);
  const started = now();
  const seconds = () => Math.round((now() - started) / 1000);
  const still = setInterval(() => say(`still compiling (${seconds()} s)…`), intervalMs);
  try {
    await build();
  } finally {
    clearInterval(still);
  }
  say(`contracts built in ${seconds()} s`);
}
