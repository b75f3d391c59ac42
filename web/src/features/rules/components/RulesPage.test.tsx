// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render, screen, within } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import axe from "axe-core";
import { RULE_SETS } from "@dicehall/core/rules/ruleSets.ts";
import { scoreBox } from "@dicehall/core/rules/score.ts";
import { RulesPage } from "./RulesPage.tsx";

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/rules" element={<RulesPage />} />
        <Route path="/rules/:ruleSet" element={<RulesPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

async function seriousViolations(container: HTMLElement) {
  const result = await axe.run(container, { rules: { "color-contrast": { enabled: false } } });
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

afterEach(cleanup);

describe("RulesPage", () => {
  for (const info of RULE_SETS) {
    it(`renders every box of ${info.name} with examples scored by the engine`, () => {
      renderAt(`/rules/${info.key}`);
      expect(screen.getByRole("heading", { level: 1, name: `Rules: ${info.name}` })).toBeTruthy();
      for (const box of info.boxes) {
        const row = screen.getByTestId(`rules-box-${box.index}`);
        expect(within(row).getByRole("rowheader").textContent).toContain(box.name);
        expect(row.textContent).toContain(box.rule);
        // The first example's dice and score, as the engine has them, shown and in its name.
        const firstExample = within(row).getAllByRole("img")[0];
        const [, shown, points] = /^([\d, ]+) scores (\d+)$/.exec(
          firstExample.getAttribute("aria-label")!,
        )!;
        const dice = shown.split(", ").map(Number);
        const engine = String(scoreBox(info.id, box.index, dice));
        expect(points).toBe(engine);
        expect(firstExample.parentElement!.textContent).toContain(engine);
      }
      const jokerHeading = screen.queryByRole("heading", { name: "The Joker rule" });
      expect(!!jokerHeading).toBe(info.joker);
    });
  }

  it("shows the Joker rule's three worked examples for classic Yahtzee", () => {
    renderAt("/rules/yahtzee");
    const section = screen.getByRole("heading", { name: "The Joker rule" }).closest("section")!;
    expect(within(section).getAllByRole("heading", { level: 3 })).toHaveLength(3);
    expect(section.textContent).toContain("Fours: 20 + 100 bonus");
    expect(section.textContent).toContain("Large Straight: 40 + 100 bonus");
  });

  it("explains the dice formula and the timeouts", () => {
    renderAt("/rules/yatzy");
    expect(screen.getByText("die[i] = 1 + uint256(keccak256(abi.encode(r, i))) % 6")).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Turns and time" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Bets, fees and payouts" })).toBeTruthy();
    // keccak256("dicehall") rolls 3, 4, 1, 3, 6.
    expect(screen.getByRole("img", { name: "3, 4, 1, 3, 6" })).toBeTruthy();
  });

  it("lists every rule set on the index", () => {
    renderAt("/rules");
    for (const info of RULE_SETS) {
      const links = screen.getAllByRole("link", { name: info.name });
      expect(links.every((a) => a.getAttribute("href") === `/rules/${info.key}`)).toBe(true);
    }
    expect(screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent)).toEqual(
      expect.arrayContaining(RULE_SETS.map((r) => r.name)),
    );
  });

  it("says so for an unknown rule set", () => {
    renderAt("/rules/poker");
    expect(screen.getByRole("heading", { level: 1, name: "No such rule set" })).toBeTruthy();
  });

  it("has no serious accessibility violations", async () => {
    const { container } = renderAt("/rules/yahtzee");
    expect(await seriousViolations(container)).toEqual([]);
  });
});
