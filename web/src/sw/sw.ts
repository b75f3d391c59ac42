// The service worker (vite-plugin-pwa builds it with Workbox's precache manifest injected): the
// app shell from the cache, so the app opens with no network (and says it is offline: the shell
// reads no game state of its own), and the hall's pushes shown as notifications whose click opens
// or focuses the table they are about. It imports nothing of the app but its list of pages: a game's words come in the
// push (the notifier writes them from core/notify/), so this file never goes stale with the rules.
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { NOT_FOUND_FILE, matchPage, pageFile } from "../routes.ts";
import { parsePush } from "./pushPayload.ts";

/** The parts of the service worker's scope this file uses (tsconfig has no WebWorker lib). */
interface WindowClient {
  url: string;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  data: { text(): string } | null;
}
interface NotificationEvent extends ExtendableEvent {
  notification: Notification & { data: unknown };
}
interface ServiceWorkerScope {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
  location: Location;
  registration: {
    showNotification(
      title: string,
      options: NotificationOptions & { data?: unknown },
    ): Promise<void>;
  };
  clients: {
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: "push", listener: (event: PushEvent) => void): void;
  addEventListener(type: "notificationclick", listener: (event: NotificationEvent) => void): void;
  addEventListener(type: "activate" | "install", listener: (event: ExtendableEvent) => void): void;
}
declare const self: ServiceWorkerScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// A page with a file of its own (the build's prerender: /leaderboard is leaderboard.html) is
// answered by the precache above. Any other page is its pattern's file (a game's page is
// games/_id.html, as the hosts' `_redirects` say), else the 404 page. The index's API and the
// chain are never cached: what they say is only true now.
registerRoute(
  new NavigationRoute(
    async ({ url, request }) => {
      const pattern = matchPage(url.pathname);
      const page =
        (pattern && (await matchPrecache(`/${pageFile(pattern)}`))) ||
        (await matchPrecache(`/${NOT_FOUND_FILE}`));
      return page ?? fetch(request);
    },
    { denylist: [/^\/api\//] },
  ),
);

self.addEventListener("install", () => void self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  const push = parsePush(event.data?.text() ?? null);
  if (!push) return;
  event.waitUntil(
    self.registration.showNotification(push.title, {
      body: push.body,
      tag: push.tag,
      icon: "/icons/icon-192.png",
      badge: "/icons/icon-192.png",
      data: { url: push.url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null;
  const path = typeof data?.url === "string" && data.url.startsWith("/") ? data.url : "/";
  const target = new URL(path, self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      // The table already open: focus it. Else any window of the app goes to the table.
      // (A browser may refuse the focus; the table is open either way.)
      const same = windows.find((w) => w.url === target);
      if (same) return same.focus().catch(() => same);
      const any = windows[0];
      if (any) {
        const moved = await any.navigate(target).catch(() => null);
        if (moved) return moved.focus().catch(() => moved);
      }
      return self.clients.openWindow(target);
    })(),
  );
});
