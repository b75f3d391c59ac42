import { startTransition } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { createWagmiConfig, loadOptionalConnectors } from "@/chain/wagmi.ts";
import { registerServiceWorker } from "@/ui/pwa.ts";
import { preloadPage } from "./pages.tsx";
import { Root, createQueryClient } from "./Root.tsx";
import "./styles.css";

registerServiceWorker();

// WalletConnect (only when configured) is fetched before the config is built, so the config keeps
// one fixed set of connectors for the whole session. The page landed on is fetched meanwhile: the
// first render draws it whole, in the place of the build's prerendered copy of it (index.html and
// the pages' own .html files, see web/prerender.ts), with no "Loading…" and no shift between.
// The render is a transition, so React yields to the browser while it draws, in short tasks.
void Promise.all([loadOptionalConnectors(), preloadPage(location.pathname)]).then(
  ([extraConnectors]) => {
    const config = createWagmiConfig(extraConnectors);
    const root = createRoot(document.getElementById("root")!);
    startTransition(() => {
      root.render(
        <Root
          config={config}
          queryClient={createQueryClient()}
          router={(app) => <BrowserRouter>{app}</BrowserRouter>}
        />,
      );
    });
  },
);
