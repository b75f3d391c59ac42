import { useSyncExternalStore } from "react";

/**
 * The installable app's browser side: the service worker (web/src/sw/sw.ts) registered once the
 * page has loaded, so its precache never competes with the first paint; and whether the browser
 * is offline, which the app says in a banner: the shell opens from the cache, but nothing it then
 * shows of the hall is live until the network is back.
 */
export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator)) return;
  const register = () => {
    // The dev server serves the worker as a module at its own path (vite-plugin-pwa's devOptions).
    const url = import.meta.env.DEV ? "/dev-sw.js?dev-sw" : "/sw.js";
    const type = import.meta.env.DEV ? "module" : "classic";
    navigator.serviceWorker.register(url, { scope: "/", type }).catch((error: unknown) => {
      console.warn(`the service worker did not register: ${String(error)}`);
    });
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
}
