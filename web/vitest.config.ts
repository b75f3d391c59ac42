import { defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config.ts";

// Pure modules run in node; component tests opt into jsdom with a `// @vitest-environment jsdom`
// docblock at the top of the file.
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: "node",
      include: ["src/**/*.test.{ts,tsx}", "../core/**/*.test.ts"],
      restoreMocks: true,
    },
  }),
);
