import { StrictMode, type ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { WagmiProvider } from "wagmi";
import { App } from "./App.tsx";
import { AnnouncerProvider } from "@/ui/announce.tsx";
import type { AppConfig } from "@/chain/wagmi.ts";

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: 2, refetchOnWindowFocus: true } },
  });
}

/**
 * The app with everything it runs inside, but the router: the browser's (main.tsx) and the
 * build's prerender (prerender.tsx) draw the same tree, each with its own router.
 */
export function Root({
  config,
  queryClient,
  router,
}: {
  config: AppConfig;
  queryClient: QueryClient;
  router: (app: ReactNode) => ReactNode;
}) {
  return (
    <StrictMode>
      <WagmiProvider config={config}>
        <QueryClientProvider client={queryClient}>
          <AnnouncerProvider>{router(<App />)}</AnnouncerProvider>
        </QueryClientProvider>
      </WagmiProvider>
    </StrictMode>
  );
}
