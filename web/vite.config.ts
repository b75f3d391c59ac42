import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";

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

export default defineConfig({
  plugins: [react(), optionalDependency("@walletconnect/ethereum-provider")],
  // `@/` is the app's own src (tsconfig.json's paths say the same). `@dicehall/core` resolves as
  // the workspace package it is; the alias lets import.meta.glob name it too.
  resolve: {
    alias: [
      { find: /^@\//, replacement: fileURLToPath(new URL("./src/", import.meta.url)) },
      {
        find: /^@dicehall\/core\//,
        replacement: fileURLToPath(new URL("../core/", import.meta.url)),
      },
    ],
  },
  server: { host: "127.0.0.1", port: 5173 },
  preview: { host: "127.0.0.1", port: 4173 },
  build: { target: "es2022", sourcemap: true, manifest: true },
});
