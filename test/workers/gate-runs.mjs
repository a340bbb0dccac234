// Worker: N real gate runs (spawning each step) of one mode on one feature, through the gates.run service.
const [root, featureId, mode, count] = process.argv.slice(2);
const dist = process.env.AOP_DIST_URL;
const { WorkspaceLayout } = await import(dist + "/store/layout.js");
const { loadPolicy } = await import(dist + "/config/policy-loader.js");
const { systemClock } = await import(dist + "/core/clock.js");
const { runGate } = await import(dist + "/domains/gates/gate-service.js");
const layout = new WorkspaceLayout(root);
const policy = await loadPolicy(layout);
const sequences = [];
for (let i = 0; i < Number(count); i++) {
  const report = await runGate(layout, systemClock, policy, { feature_id: featureId, mode }, { warn: (m) => process.stderr.write(`warning: ${m}\n`) });
  sequences.push(report.chain?.sequence ?? null);
}
process.stdout.write(JSON.stringify({ sequences }) + "\n");
