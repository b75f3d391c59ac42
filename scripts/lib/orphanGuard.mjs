// Loaded into child processes the dev stack starts (`node --import`): the child ends when the
// process that started it is gone, however that one ended (even SIGKILL), so no indexer is left
// holding its port.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, "SIGTERM");
}, 1_000).unref();
