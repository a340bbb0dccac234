// Worker: writes evidence and appends it to a feature's chain as fast as it can (the store path of a gate
// run, without spawning steps), printing each sequence; runs until killed, or for `count` appends.
const [root, featureId, count] = process.argv.slice(2);
const dist = process.env.AOP_DIST_URL;
const { WorkspaceLayout } = await import(dist + "/store/layout.js");
const { systemClock } = await import(dist + "/core/clock.js");
const { appendGateRun } = await import("./gate-run-store.mjs");
const layout = new WorkspaceLayout(root);
const limit = count === undefined ? Infinity : Number(count);
process.stdout.write("ready\n");
for (let i = 0; i < limit; i++) {
  const chain = await appendGateRun(layout, systemClock, featureId, i);
  process.stdout.write(`appended ${chain.sequence}\n`);
}
