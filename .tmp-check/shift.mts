import { chromium } from "playwright-core";
import { serveStatic } from "../scripts/lib/staticServer.ts";
const site = await serveStatic("/tmp/pr-out");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
const page = await context.newPage();
await page.addInitScript(`
  window.__log = [];
  const t0 = performance.now();
  new MutationObserver(() => {
    const pg = document.querySelector("main > .page");
    if (!pg) return;
    const parts = [...pg.children].map(c => c.tagName.toLowerCase() + "." + String(c.className).split(" ")[0] + ":" + Math.round(c.getBoundingClientRect().top) + "+" + Math.round(c.getBoundingClientRect().height) + " " + (c.textContent||"").slice(0,40).replace(/\\s+/g," ")).join(" | ");
    if (window.__log.at(-1)?.endsWith(parts)) return;
    window.__log.push(Math.round(performance.now() - t0) + " ms " + parts);
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
`);
await page.goto(site.url + "/players/0x541Dfe503202b78c5d78FaCd6CDB0a04D4b35634");
await page.waitForTimeout(4000);
console.log((await page.evaluate(() => (window as any).__log)).join("\n"));
await browser.close(); await site.close();
