// The base stylesheet first, then every component's (stylesheets.ts): the order their rules apply.
import "./styles.css";
import "./stylesheets.ts";
import { startTransition, type ReactNode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { createWagmiConfig, loadOptionalConnectors } from "@/chain/wagmi.ts";
import { registerServiceWorker } from "@/ui/pwa.ts";
import { preloadPage } from "./pages.tsx";
import { Root, createQueryClient } from "./Root.tsx";

registerServiceWorker();

/**
 * The production build's pages arrive drawn (web/prerender.ts): React takes over that HTML as it
 * is (hydration: no page drawn twice, nothing moves), as a transition, in short slices with the
 * page free between them: on a phone the whole page is a long task otherwise. Nothing can
 * interrupt it with an update: no component has mounted yet, and the stores the app reads (the
 * wallet, the queries) are subscribed to only once it is done. A page whose code is in has no
 * Suspense boundary around it (pages.tsx), so the page is taken over with the rest, in the same
 * pass, never after the app's effects have run. Where the HTML differs from the app's first
 * render (a page that reads this device's storage as it draws, say), React draws that part
 * afresh, which is what it would have done anyway: said once in the console, not an error. A
 * pattern's page (a game's, drawn for every game) and the dev server's empty index.html are drawn
 * afresh, as a transition too.
 */
function start(app: ReactNode): void {
  const container = document.getElementById("root")!;
  if (container.dataset.prerendered === "page") {
    startTransition(() => {
      hydrateRoot(container, app, {
        onRecoverableError: (error) =>
          console.warn(`the prerendered page was drawn afresh: ${String(error)}`),
      });
    });
  } else {
    const root = createRoot(container);
    startTransition(() => root.render(app));
  }
}

// WalletConnect (only when configured) is fetched before the config is built, so the config keeps
// one fixed set of connectors for the whole session. The page landed on is fetched meanwhile: the
// first render is that page whole, as its prerendered HTML shows it, with no "Loading…" between.
// Building the config and taking over the page are two tasks, with the page free between them: on
// a phone each is tens of milliseconds.
const yieldToPage = () => new Promise((resolve) => setTimeout(resolve, 0));
void Promise.all([loadOptionalConnectors(), preloadPage(location.pathname)]).then(
  async ([extraConnectors]) => {
    const config = createWagmiConfig(extraConnectors);
    const queryClient = createQueryClient();
    await yieldToPage();
    start(
      <Root
        config={config}
        queryClient={queryClient}
        router={(app) => <BrowserRouter>{app}</BrowserRouter>}
      />,
    );
  },
);
