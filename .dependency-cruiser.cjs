// The rule of the house (docs/ARCHITECTURE.md): which room may import which. `npm run lint` runs
// it (`npm run lint:deps`); test/layout.test.ts plants a forbidden import and sees it fail.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "core-imports-nothing-of-ours",
      comment: "core/ is the game on its own: it imports no app, indexer, script or test of ours.",
      severity: "error",
      from: { path: "^core/" },
      to: { path: "^(web|indexer|scripts|test|ignition|contracts)/" },
    },
    {
      name: "core-has-no-screen-or-connection",
      comment:
        "core/ runs in the app, the indexer, the scripts and a worker: no React, wagmi or query cache.",
      severity: "error",
      from: { path: "^core/" },
      to: {
        path: "node_modules/(react|react-dom|react-router|wagmi|@wagmi|@tanstack|@walletconnect)/",
      },
    },
    {
      name: "core-by-its-name",
      comment: "Outside core/, core is imported as @dicehall/core/..., never by a relative path.",
      severity: "error",
      from: { path: "^(web|indexer|scripts|test)/" },
      to: { path: "^core/", dependencyTypesNot: ["aliased-workspace"] },
    },
    {
      name: "nothing-outside-web-imports-web",
      comment: "The indexer, the scripts and the tests use core/, not the app.",
      severity: "error",
      from: { pathNot: "^web/" },
      to: { path: "^web/" },
    },
    {
      name: "indexer-and-scripts-use-only-core",
      comment: "The indexer and the scripts use core/ (the scripts also their own scripts/lib/).",
      severity: "error",
      from: { path: "^(indexer|scripts)/" },
      to: { path: "^(web|test)/" },
    },
    {
      name: "scripts-reach-the-indexer-only-to-seed-it",
      comment:
        "Only the indexer benchmark's seeder (scripts/lib/seedIndex.ts) imports the indexer: it folds the analyses into a stopped index with the indexer's own code. Every other script talks to an indexer over HTTP.",
      severity: "error",
      from: { path: "^scripts/", pathNot: "^scripts/lib/seedIndex\\.ts$" },
      to: { path: "^indexer/" },
    },
    {
      name: "shared-rooms-never-import-features",
      comment: "chain/, data/, ui/ and the test kits serve every feature and know none.",
      severity: "error",
      from: { path: "^web/src/(chain|data|ui|test)/" },
      to: { path: "^web/src/features/" },
    },
    {
      name: "no-imports-across-features",
      comment: "A feature uses another's work only through chain/, data/, ui/ or core.",
      severity: "error",
      from: { path: "^web/src/features/([^/]+)/" },
      to: { path: "^web/src/features/", pathNot: "^web/src/features/$1/" },
    },
    {
      name: "test-kits-stay-in-tests",
      comment: "core/test/ and web/src/test/ build fixtures; production code never imports them.",
      severity: "error",
      from: { pathNot: "(\\.test\\.tsx?$|^core/test/|^web/src/test/|^test/|^web/e2e/)" },
      to: { path: "^(core/test|web/src/test)/" },
    },
    {
      name: "no-circular",
      comment:
        "No module reaches itself through its imports (a type-only one included): a circle hides which side is the base. Writes: write.ts is the base, tx.ts, batch.ts and sessionPayout.ts build on it.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "every-import-resolves",
      comment: "An import the checker cannot follow would slip past every rule above.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true, pathNot: "^ponder:" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: {
      path: "^(artifacts|cache|coverage|types|dist|web/dist|indexer/\\.ponder|indexer/generated)/",
    },
    // TypeScript 7 has no compiler API yet, so the sources are read with swc.
    parser: "swc",
    // tsconfig.json's paths give the app's `@/` (web/vite.config.ts's alias says the same).
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
