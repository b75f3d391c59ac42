import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { BrowserRouter } from "react-router";
import { WagmiProvider } from "wagmi";
import { App } from "./App.tsx";
import { AnnouncerProvider } from "@/ui/announce.tsx";
import { createWagmiConfig, loadOptionalConnectors } from "@/chain/wagmi.ts";
import { registerServiceWorker } from "@/ui/pwa.ts";
import "./styles.css";

registerServiceWorker();

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 2, refetchOnWindowFocus: true } },
});

// WalletConnect (only when configured) is fetched before the config is built, so the config keeps
// one fixed set of connectors for the whole session.
void loadOptionalConnectors().then((extraConnectors) => {
  const config = createWagmiConfig(extraConnectors);
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <WagmiProvider config={config}>
        <QueryClientProvider client={queryClient}>
          <AnnouncerProvider>
            <BrowserRouter>
              <App />
            </BrowserRouter>
          </AnnouncerProvider>
        </QueryClientProvider>
      </WagmiProvider>
    </StrictMode>,
  );
});
