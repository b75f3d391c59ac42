// Scenario 15: the installable app and the hall's Web Push (dev accounts 4, in the app, and 19). Each
// page's prerendered HTML as the server and, offline, the service worker answer it. The manifest
// (name, icons, standalone) as Chromium reads it; the shell from the service worker's cache with the
// network off, saying it is offline; "Notify me" subscribes the connected account at the game index;
// a table it sits at fills, the index's notifier sends the push, our own push service (the test's:
// Chromium's, FCM, is out of reach here) decrypts it; the same payload delivered to the app's
// service worker through the DevTools protocol (ServiceWorker.deliverPushMessage) shows the
// notification, and clicking it opens the table. Turning off deletes the subscription at the index.
//
// Headless Chromium has no push service of its own (its subscribe answers "permission denied"), so
// the page's PushManager answers with a subscription at our push service, with keys that service
// made: everything after it (the app's request, the index, the notifier's encryption, the service
// worker) is the real code.
import assert from "node:assert/strict";

import {
  pushServiceCertificate,
  startPushEndpoint,
  trustInChildProcesses,
  type TestSubscription,
} from "../../../scripts/lib/pushService.ts";
import { eventually, hallTable, openLobby } from "../lib/chain.ts";
import { connectWallet, countingWallet, type CountingWallet } from "../lib/countingWallet.ts";
import { e2e, type Suite } from "../lib/harness.ts";
import { MOVE_TIMEOUT_MS, connectDevAccount } from "../lib/ui.ts";
import { joinGame } from "../../../scripts/lib/table.ts";
import { parseEther } from "viem";

// The indexer (a child process the suite starts after this module loads) sends to our push
// service over HTTPS: it trusts the service's certificate through NODE_EXTRA_CA_CERTS.
const certificate = pushServiceCertificate();
trustInChildProcesses(certificate.cert);

/**
 * The page's PushManager, answering with `subscription` (see above), which lasts across page
 * loads as a browser's does. A string: see turnAlerts.
 */
const fakePushManager = (subscription: TestSubscription) => `(() => {
  const data = ${JSON.stringify(subscription)};
  const KEY = "e2e:push-subscribed";
  const make = () => ({
    endpoint: data.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true },
    getKey: () => null,
    toJSON: () => ({ endpoint: data.endpoint, expirationTime: null, keys: data.keys }),
    unsubscribe: async () => {
      localStorage.removeItem(KEY);
      return true;
    },
  });
  PushManager.prototype.subscribe = async function (options) {
    if (!options || !options.applicationServerKey) throw new Error("no applicationServerKey");
    localStorage.setItem(KEY, "1");
    return make();
  };
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem(KEY) ? make() : null;
  };
})();`;

export function pushScenarios(suite: () => Suite): void {
  e2e(
    suite,
    "the installable app: its manifest, the shell offline, a push from the hall shown by the service worker and opening the table",
    { timeout: 240_000 },
    async (session) => {
      const { stack } = session;
      const origin = new URL(stack.webUrl).origin;
      const service = await startPushEndpoint(certificate);
      try {
        const [me, other] = [stack.accounts[4], stack.accounts[19]];

        // --- Every page is in its HTML before any code (the build's prerender): a phone shows it
        // as soon as the HTML and the stylesheet are in. A game's or a player's page is its
        // pattern's, an unknown path the 404 page, as the build's `_redirects` tell a host.
        for (const [path, status, words] of [
          ["/leaderboard", 200, "<h1>Leaderboard</h1>"],
          ["/rules/yatzy", 200, "Yatzy"],
          ["/games/424242", 200, "Reading the table from the chain"],
          [`/players/${me}`, 200, "<h1>Player</h1>"],
          ["/no-such-page", 404, "<h1>Nothing here</h1>"],
        ] as const) {
          const response = await fetch(new URL(path, stack.webUrl), {
            headers: { accept: "text/html" },
          });
          assert.equal(response.status, status, path);
          assert.ok((await response.text()).includes(words), `${path} says ${words}`);
        }

        const tracked = await session.newPage("player (account 4)");
        const { page, context } = tracked;
        await context.grantPermissions(["notifications"], { origin });
        const subscription = service.subscribe("player4");
        await context.addInitScript({ content: fakePushManager(subscription) });
        await session.goto(tracked, "/");
        // The service worker takes the page once it is installed (skipWaiting, clients.claim).
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

        // --- Offline: the shell opens from the cache, and says nothing on it is live.
        await context.setOffline(true);
        await page.reload();
        await page.getByRole("banner").getByRole("link", { name: "Dicehall home" }).waitFor();
        await page.getByRole("status").filter({ hasText: "You are offline" }).waitFor();
        await page
          .getByRole("navigation", { name: "Main" })
          .getByRole("link", { name: "Leaderboard" })
          .click();
        await page.getByRole("heading", { level: 1 }).first().waitFor();
        await page.getByRole("status").filter({ hasText: "You are offline" }).waitFor();
        // A page opened offline by its address is its own prerendered file from the cache: a
        // game's page is the games' one, not the home page's.
        const offlineGame = await page.goto(new URL("/games/424242", stack.webUrl).toString());
        assert.ok(offlineGame?.fromServiceWorker(), "the game's page came from the service worker");
        assert.ok((await offlineGame!.text()).includes("Reading the table from the chain"));
        await page.getByRole("heading", { level: 1, name: "Game #424242" }).waitFor();
        await context.setOffline(false);
        await page
          .getByRole("status")
          .filter({ hasText: "You are offline" })
          .waitFor({ state: "detached" });
        // What failed while offline is the point of this step, not an error of the app's.
        tracked.console.splice(
          0,
          tracked.console.length,
          ...tracked.console.filter(
            (l) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(l.text),
          ),
        );
        await session.goto(tracked, "/");

        // --- The manifest, as Chromium reads it.
        const cdp = await context.newCDPSession(page);
        const read = (await cdp.send("Page.getAppManifest")) as {
          url: string;
          errors: { message: string }[];
          data?: string;
        };
        assert.match(read.url, /\/manifest\.webmanifest$/);
        assert.deepEqual(read.errors, []);
        const manifest = JSON.parse(read.data ?? "{}") as {
          name: string;
          display: string;
          start_url: string;
          icons: { src: string; sizes: string; purpose: string }[];
        };
        assert.equal(manifest.name, "Dicehall");
        assert.equal(manifest.display, "standalone");
        assert.equal(manifest.start_url, "/");
        const icons = manifest.icons.map((i) => `${i.sizes} ${i.purpose}`);
        assert.deepEqual(icons, ["192x192 any", "512x512 any", "512x512 maskable"]);
        for (const icon of manifest.icons) {
          const type = await page.evaluate(
            async (src) => (await fetch(src)).headers.get("content-type"),
            icon.src,
          );
          assert.equal(type, "image/png", icon.src);
        }

        // --- Notify me: the permission, the subscription, stored at the index for this account.
        await connectDevAccount(page, 4, me);
        await page.getByRole("banner").getByRole("button", { name: "Notify me" }).click();
        const panel = page.getByRole("dialog", { name: "Notifications" });
        await panel.getByRole("button", { name: "Turn on" }).click();
        await panel.getByRole("status").filter({ hasText: "Notifications are on." }).waitFor();
        const indexer = stack.chain.indexerUrl!;
        const stored = await fetch(
          `${indexer}/api/push/subscriptions?endpoint=${encodeURIComponent(subscription.endpoint)}`,
        ).then((r) => r.json() as Promise<{ address: string; kinds: string[] }>);
        assert.equal(stored.address, me.toLowerCase());
        assert.equal(stored.kinds.length, 7);
        await panel.getByRole("button", { name: "Close" }).click();

        // --- A table it sits at fills: the notifier pushes; our push service decrypts it.
        const bet = parseEther("0.001");
        const gameId = await openLobby(stack, other, { bet });
        await joinGame(
          hallTable(stack),
          me,
          gameId,
          "0x0000000000000000000000000000000000000000",
          bet,
        );
        const push = await eventually(
          "the notifier's push to reach the push service",
          // (Another scenario's table of this account may push too: its clock, say.)
          async () =>
            service.received.find(
              (r) =>
                r.name === "player4" && (r.payload as { url: string }).url === `/games/${gameId}`,
            ),
          MOVE_TIMEOUT_MS,
        );
        const payload = push.payload as { title: string; body: string; url: string };
        assert.equal(payload.url, `/games/${gameId}`);
        assert.equal(payload.title, "Your table started");
        assert.equal(service.rejected.length, 0);

        // --- The payload delivered to the app's service worker: it shows the notification.
        const registrations: { registrationId: string; scopeURL: string }[] = [];
        cdp.on("ServiceWorker.workerRegistrationUpdated", (event) => {
          registrations.push(...(event as { registrations: typeof registrations }).registrations);
        });
        await cdp.send("ServiceWorker.enable");
        const registration = await eventually("the service worker's registration", async () =>
          registrations.find((r) => r.scopeURL === `${origin}/`),
        );
        await cdp.send("ServiceWorker.deliverPushMessage", {
          origin,
          registrationId: registration.registrationId,
          data: JSON.stringify(push.payload),
        });
        const shown = await eventually("the notification", async () => {
          const notes = await page.evaluate(async () =>
            (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
              title: n.title,
              body: n.body,
              url: (n.data as { url?: string } | null)?.url,
            })),
          );
          return notes.length > 0 ? notes : undefined;
        });
        assert.deepEqual(shown, [{ title: payload.title, body: payload.body, url: payload.url }]);

        // --- Clicking it opens the table (the click is dispatched in the service worker).
        const worker = context.serviceWorkers().find((w) => w.url() === `${origin}/sw.js`);
        assert.ok(worker, "the app's service worker runs");
        await worker.evaluate(async () => {
          const scope = self as unknown as {
            registration: { getNotifications(): Promise<Notification[]> };
            dispatchEvent(event: Event): boolean;
          };
          const [notification] = await scope.registration.getNotifications();
          const Click = (
            globalThis as unknown as {
              NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
            }
          ).NotificationEvent;
          scope.dispatchEvent(new Click("notificationclick", { notification }));
        });
        await page.waitForURL(`${origin}/games/${gameId}`);
        await page.getByRole("table", { name: "Score sheets" }).waitFor();

        // --- Turn off: the index deletes what it stored.
        await page.getByRole("banner").getByRole("button", { name: "Notify me" }).click();
        await panel.getByRole("button", { name: "Turn off" }).click();
        await panel.getByRole("status").filter({ hasText: "Notifications are off" }).waitFor();
        const gone = await fetch(
          `${indexer}/api/push/subscriptions?endpoint=${encodeURIComponent(subscription.endpoint)}`,
        );
        assert.equal(gone.status, 404);
      } finally {
        await service.close();
      }
    },
  );

  e2e(
    suite,
    "Notify me: at a table with a session key the wallet is asked nothing; without a key, one signature",
    { timeout: 240_000 },
    async (session) => {
      const { stack } = session;
      const origin = new URL(stack.webUrl).origin;
      const service = await startPushEndpoint(certificate);
      const indexer = stack.chain.indexerUrl!;
      const storedFor = async (endpoint: string) =>
        (await fetch(
          `${indexer}/api/push/subscriptions?endpoint=${encodeURIComponent(endpoint)}`,
        ).then((r) => r.json())) as { address?: string };
      const asked = (wallet: CountingWallet) =>
        `${wallet.confirmations()}: ${wallet.confirmationLog().join(", ")}`;
      /** A page whose browser can subscribe (our push service), with a wallet that counts. */
      const open = async (label: string, index: number, path: string, name: string) => {
        const tracked = await session.newPage(label);
        await tracked.context.grantPermissions(["notifications"], { origin });
        const subscription = service.subscribe(name);
        await tracked.context.addInitScript({ content: fakePushManager(subscription) });
        const wallet = await countingWallet(stack, tracked.context, index);
        await session.goto(tracked, path);
        await connectWallet(tracked.page, wallet);
        return { page: tracked.page, wallet, subscription };
      };
      const turnOn = async (page: import("playwright-core").Page) => {
        await page.getByRole("banner").getByRole("button", { name: "Notify me" }).click();
        const panel = page.getByRole("dialog", { name: "Notifications" });
        await panel.getByRole("button", { name: "Turn on" }).click();
        await panel
          .getByRole("status")
          .filter({ hasText: "Notifications are on." })
          .waitFor({ timeout: MOVE_TIMEOUT_MS });
        await panel.getByRole("button", { name: "Close" }).click();
      };
      try {
        // --- Account 17 opens a table with a session key: one confirmation.
        const keyed = await open("A (account 17, session key)", 17, "/games/new", "keyed17");
        await keyed.page.getByRole("radio", { name: /^ETH/ }).check();
        await keyed.page.getByLabel(/^Bet per seat/).fill("0.01");
        await keyed.page
          .getByTestId("session-summary")
          .getByText(/^Your wallet asks once/)
          .waitFor();
        await keyed.page.getByRole("button", { name: "Open the table" }).click();
        await keyed.page.waitForURL(/\/games\/\d+\?created=1$/, { timeout: MOVE_TIMEOUT_MS });
        assert.equal(keyed.wallet.confirmations(), 1, `the table: ${asked(keyed.wallet)}`);
        // At the table, Notify me: the key signs the proof; the wallet is not asked.
        await turnOn(keyed.page);
        assert.equal(
          keyed.wallet.confirmations(),
          1,
          `Notify me with a key: ${asked(keyed.wallet)}`,
        );
        assert.equal(
          (await storedFor(keyed.subscription.endpoint)).address,
          stack.accounts[17].toLowerCase(),
        );

        // --- Account 9, no session key in this browser: one signature, nothing else.
        const plain = await open("B (account 9, no key)", 9, "/", "plain9");
        await turnOn(plain.page);
        assert.equal(
          plain.wallet.confirmations(),
          1,
          `Notify me without a key: ${asked(plain.wallet)}`,
        );
        assert.deepEqual(
          plain.wallet.requests.filter((r) => r.method === "personal_sign").length,
          1,
        );
        assert.equal(
          (await storedFor(plain.subscription.endpoint)).address,
          stack.accounts[9].toLowerCase(),
        );
      } finally {
        await service.close();
      }
    },
  );
}
