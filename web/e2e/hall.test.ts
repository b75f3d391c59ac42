// The browser end-to-end suite: one local system (chain, contracts, keeper, web app) and one
// Chromium for every scenario, run in order. The pieces are in web/e2e/lib/, the scenarios in
// web/e2e/scenarios/. Run one scenario with --test-name-pattern (the stack still starts once).
import { after, before, describe } from "node:test";

import {
  SUITE_START_TIMEOUT_MS,
  startSuite,
  suiteLog,
  timings,
  type Suite,
} from "./lib/harness.ts";
import { scaled } from "./lib/timing.ts";
import { accessibilityScenarios } from "./scenarios/accessibility.ts";
import { coachScenarios } from "./scenarios/coach.ts";
import { edgeScenarios } from "./scenarios/edges.ts";
import { entropyScenarios } from "./scenarios/entropy.ts";
import { fullGameScenarios } from "./scenarios/fullGame.ts";
import { matchScenarios } from "./scenarios/match.ts";
import { playerScenarios } from "./scenarios/players.ts";
import { practiceScenarios } from "./scenarios/practice.ts";
import { privateLobbyScenarios } from "./scenarios/privateLobby.ts";
import { pushScenarios } from "./scenarios/push.ts";
import { reloadScenarios } from "./scenarios/reload.ts";
import { screenshotScenarios } from "./scenarios/screenshots.ts";
import { sessionKeyScenarios } from "./scenarios/sessionKeys.ts";
import { timeoutScenarios } from "./scenarios/timeout.ts";
import { turnAlertScenarios } from "./scenarios/turnAlerts.ts";
import { walletScenarios } from "./scenarios/wallet.ts";

const { log, lines: logLines, started } = suiteLog();

// Each test has its own budget (see e2e()); this bound only catches a hang between tests.
describe("Dicehall in the browser", { timeout: scaled(45 * 60_000) }, () => {
  let suite: Suite | undefined;

  before(
    async () => {
      suite = await startSuite(log, logLines);
    },
    { timeout: SUITE_START_TIMEOUT_MS + 30_000 },
  );

  after(async () => {
    await suite?.browser.close().catch(() => {});
    await suite?.stack.stop();
    const total = ((Date.now() - started) / 1000).toFixed(1);
    const lines = timings.map(
      (t) => `  ${t.ok ? "ok  " : "FAIL"} ${(t.ms / 1000).toFixed(1).padStart(6)} s  ${t.name}`,
    );
    console.log(`e2e timings (whole file ${total} s):\n${lines.join("\n")}`);
  });

  const current = (): Suite => {
    if (!suite) throw new Error("the suite did not start (see the before hook's error)");
    return suite;
  };

  describe("1. a whole game for money", () => fullGameScenarios(current));
  describe("2. a private table", () => privateLobbyScenarios(current));
  describe("3. reloading", () => reloadScenarios(current));
  describe("4. timeouts", () => timeoutScenarios(current));
  describe("5. practice", () => practiceScenarios(current));
  describe("6. accessibility", () => accessibilityScenarios(current));
  describe("7. screenshots", () => screenshotScenarios(current));
  describe("8. layout", async () => {
    const { layoutScenarios, pageLayoutScenarios } = await import("./scenarios/layout.ts");
    layoutScenarios(current);
    pageLayoutScenarios(current);
  });
  describe("9. the coach", () => coachScenarios(current));
  describe("10. turn alerts", () => turnAlertScenarios(current));
  describe("11. rough edges", () => edgeScenarios(current));
  describe("12. player pages", () => playerScenarios(current));
  describe("13. a roll Entropy leaves without dice", () => entropyScenarios(current));
  describe("14. a wallet that asks", () => walletScenarios(current));
  describe("15. the installable app and its pushes", () => pushScenarios(current));
  describe("16. session keys that rotate", () => sessionKeyScenarios(current));
  describe("17. a match of several games", () => matchScenarios(current));
});
