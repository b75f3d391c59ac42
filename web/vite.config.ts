import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import { VitePWA } from "vite-plugin-pwa";
import { prerenderPages } from "./prerender.ts";

const require = createRequire(import.meta.url);

function isInstalled(name: string): boolean {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * wagmi's WalletConnect connector imports its SDK lazily as an optional peer dependency. When the
 * SDK is not installed the import becomes a module that fails on load, so the build still works
 * and the connector reports a clear error instead of breaking the app.
 */
function optionalDependency(name: string): Plugin {
  const virtualId = `\0optional:${name}`;
  const missing = !isInstalled(name);
  return {
    name: "dicehall:optional-dependency",
    enforce: "pre",
    resolveId(id) {
      return missing && id === name ? virtualId : null;
    },
    load(id) {
      if (id !== virtualId) return null;
      return `throw new Error(${JSON.stringify(`${name} is not installed in this build.`)});`;
    },
  };
}

// `@/` is the app's own src (tsconfig.json's paths say the same). `@dicehall/core` resolves as
// the workspace package it is; the alias lets import.meta.glob name it too.
const alias = [
  { find: /^@\//, replacement: fileURLToPath(new URL("./src/", import.meta.url)) },
  {
    find: /^@dicehall\/core\//,
    replacement: fileURLToPath(new URL("../core/", import.meta.url)),
  },
];

export default defineConfig({
  plugins: [
    react(),
    optionalDependency("@walletconnect/ethereum-provider"),
    // Every page drawn to HTML at build time, the app's code loaded after the first paint.
    prerenderPages({ alias }),
    // The installable app: the manifest, and our service worker (web/src/sw/sw.ts) with Workbox's
    // precache of the built shell injected. The app registers it itself (web/src/ui/pwa.ts), after
    // the first paint.
    VitePWA({
      strategies: "injectManifest",
      srcDir: "src/sw",
      filename: "sw.ts",
      injectRegister: false,
      manifestFilename: "manifest.webmanifest",
      includeAssets: ["favicon.svg", "icons/apple-touch-icon-180.png"],
      manifest: {
        name: "Dicehall",
        short_name: "Dicehall",
        description:
          "An on-chain Yahtzee hall: open a table, bet, and roll dice from Pyth Entropy.",
        id: "/",
        start_url: "/",
        scope: "/",
        display: "standalone",
        background_color: "#fbf8ef",
        theme_color: "#1d4d3a",
        icons: [
          { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          {
            src: "/icons/maskable-512.png",
            sizes: "512x512",
            type: "image/png",
            purpose: "maskable",
          },
        ],
      },
      injectManifest: {
        // The shell and every page's chunks (a page opened offline still draws); never the source
        // maps, nor the coach's tables, which the coach fetches when asked.
        globPatterns: ["**/*.{js,css,html,svg,png,webmanifest}"],
        globIgnores: ["**/*.map"],
      },
      devOptions: { enabled: true, type: "module" },
    }),
  ],
  resolve: { alias },
  server: { host: "127.0.0.1", port: 5173 },
  preview: { host: "127.0.0.1", port: 4173 },
  build: { target: "es2022", sourcemap: true, manifest: true },
});
