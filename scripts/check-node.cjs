// Runs before install and tests: Hardhat 3, Vite, Vitest and jsdom need a recent Node. The range
// is package.json's "engines" (jsdom's own); .npmrc's engine-strict makes `npm ci` refuse an older
// Node before it downloads anything, and this says what to do instead.
const [major, minor, patch] = process.versions.node.split(".").map(Number);
const atLeast = (m, p) => minor > m || (minor === m && patch >= p);
const supported =
  (major === 22 && atLeast(22, 2)) || (major === 24 && atLeast(15, 0)) || major >= 26;
if (!supported) {
  console.error(
    `Dicehall needs Node 22.22.2+, 24.15+ or 26+ (package.json "engines"); this is Node ${process.versions.node}.\n` +
      "Run any command through Node 24 from the npm registry, for example:\n" +
      "  npx -y -p node@24 -- npm ci\n" +
      "  npx -y -p node@24 -- npm test",
  );
  process.exit(1);
}
