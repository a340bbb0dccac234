// Worker: appends a gate run to a feature's chain, then anchors the chain, over and over (the path of a
// gate run with anchor_after_gate, without spawning steps); prints each anchored size; runs until killed,
// or for `count` rounds. Signs with the key AOP_SIGNING_KEY names; with ANCHOR_GIT=1 each anchor is also
// committed on refs/aop/anchors (as anchor_git does).
const [root, featureId, count] = process.argv.slice(2);
const dist = process.env.AOP_DIST_URL;
const { WorkspaceLayout } = await import(dist + "/store/layout.js");
const { systemClock } = await import(dist + "/core/clock.js");
const { anchorFeature } = await import(dist + "/domains/attest/anchor-service.js");
const { loadSigner } = await import(dist + "/domains/attest/signing-key.js");
const { readCommittedKeys } = await import(dist + "/domains/attest/public-keys.js");
const { appendGateRun } = await import("./gate-run-store.mjs");
const layout = new WorkspaceLayout(root);
const signer = loadSigner(process.env.AOP_SIGNING_KEY);
const limit = count === undefined ? Infinity : Number(count);
for (let i = 0; i < limit; i++) {
  await appendGateRun(layout, systemClock, featureId, i, { durable: false });
  const anchor = await anchorFeature(layout, systemClock, signer, readCommittedKeys(layout).keys.values(), featureId, { git: process.env.ANCHOR_GIT === "1", warn: (m) => process.stderr.write(`warning: ${m}\n`) });
  process.stdout.write(`anchored ${anchor.tree_size}\n`);
}
