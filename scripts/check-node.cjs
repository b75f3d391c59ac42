// Runs before install and tests: Hardhat 3, Vite and Vitest need Node 22 or newer.
const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  console.error(
    `Dicehall needs Node 22 or newer; this is Node ${process.versions.node}.\n` +
      "Run any command through Node 24 from the npm registry, for example:\n" +
      "  npx -y -p node@24 -- npm ci\n" +
      "  npx -y -p node@24 -- npm test",
  );
  process.exit(1);
}
