// axe-core, injected into the page as it is, run against the whole document.
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);
const AXE_SOURCE = require.resolve("axe-core/axe.min.js");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: string[]; html: string; failureSummary: string }[];
}

const AXE_RUN = `(async () => {
  const result = await window.axe.run(document, { resultTypes: ["violations", "incomplete"] });
  const slim = (v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    helpUrl: v.helpUrl,
    nodes: v.nodes.map((n) => ({ target: n.target, html: n.html.slice(0, 300), failureSummary: n.failureSummary })),
  });
  return { violations: result.violations.map(slim), incomplete: result.incomplete.map(slim) };
})()`;

export async function runAxe(page: Page) {
  if (!(await page.evaluate(() => "axe" in window))) {
    await page.addScriptTag({ path: AXE_SOURCE });
  }
  // As a string: the test's own code is transpiled with helpers (esbuild's __name) that do not
  // exist in the page.
  return page.evaluate(AXE_RUN) as Promise<{
    violations: AxeViolation[];
    incomplete: AxeViolation[];
  }>;
}

export const BLOCKING_IMPACTS = new Set(["serious", "critical"]);

export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map(
      (v) =>
        `${v.impact}: ${v.id} — ${v.help} (${v.helpUrl})\n` +
        v.nodes
          .slice(0, 8)
          .map((n) => `      at ${n.target.join(" ")}: ${n.html}`)
          .join("\n"),
    )
    .join("\n    ");
}
