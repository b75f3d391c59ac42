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
 * is (hydration: no page drawn twice, nothing moves). In one go, not as an interruptible
 * transition: an update arriving midway (the wallet reconnecting, a read answering) would make
 * React draw the part not yet taken over afresh, with the prerendered copy hidden beside it for a
 * moment. Where the HTML differs from the app's first render (a page that reads this device's
 * storage as it draws, say), React draws that part afresh, which is what it would have done
 * anyway: said once in the console, not an error. A pattern's page (a game's, drawn for every
 * game) and the dev server's empty index.html are drawn afresh, as a transition (in short tasks).
 */
function start(app: ReactNode): void {
  const container = document.getElementById("root")!;
  if (container.dataset.prerendered === "page") {
    hydrateRoot(container, app, {
      onRecoverableError: (error) =>
        console.warn(`the prerendered page was drawn afresh: ${String(error)}`),
    });
  } else {
    const root = createRoot(container);
    startTransition(() => root.render(app));
  }
}

// WalletConnect (only when configured) is fetched before the config is built, so the config keeps
// one fixed set of connectors for the whole session. The page landed on is fetched meanwhile: the
// first render is that page whole, as its prerendered HTML shows it, with no "Loading…" between.
void Promise.all([loadOptionalConnectors(), preloadPage(location.pathname)]).then(
  ([extraConnectors]) =>
    start(
      <Root
        config={createWagmiConfig(extraConnectors)}
        queryClient={createQueryClient()}
        router={(app) => <BrowserRouter>{app}</BrowserRouter>}
      />,
    ),
);
