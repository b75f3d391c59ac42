import { chromium } from "playwright-core";
import { serveStatic } from "../scripts/lib/staticServer.ts";
const site = await serveStatic("/tmp/pr-out");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
for (const path of ["/rules/yahtzee", "/rules/yatzy", "/rules/extended", "/rules"]) {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  page.on("console", (m) => { if (m.type() === "warning" && /afresh/.test(m.text())) console.log(path, "WARN", m.text().slice(0, 600)); });
  await page.goto(site.url + path);
  for (let i = 0; i < 40; i++) { const n = await page.locator('[data-testid="rules-box-1"]').count(); if (n !== 1) console.log(path, i*25, "ms rows:", n); await page.waitForTimeout(25); }
  await page.close();
}
await browser.close(); await site.close();
