// Worker: gate runs with attestations, as sealGateRun makes them (the attestation, then its receipt under
// the evidence lock), `count` rounds; prints each attested sequence. Signs with the key AOP_SIGNING_KEY names.
const [root, featureId, count] = process.argv.slice(2);
const dist = process.env.AOP_DIST_URL;
const { WorkspaceLayout } = await import(dist + "/store/layout.js");
const { systemClock } = await import(dist + "/core/clock.js");
const { attestGateRun } = await import(dist + "/domains/attest/gate-seal.js");
const { loadSigner } = await import(dist + "/domains/attest/signing-key.js");
const { writeGateRun } = await import("./gate-run-store.mjs");
const layout = new WorkspaceLayout(root);
const signer = loadSigner(process.env.AOP_SIGNING_KEY);
for (let i = 0; i < Number(count); i++) {
  const { written, chain } = await writeGateRun(layout, systemClock, featureId, i, { durable: false });
  const gate = { feature_id: featureId, mode: written.evidence.mode, epochMs: written.epochMs, rel_path: written.rel_path, bytes: written.bytes, evidence: written.evidence };
  await attestGateRun(layout, signer, gate, chain, { durable: false, warn: (m) => process.stderr.write(`warning: ${m}\n`) });
  process.stdout.write(`attested ${chain.sequence}\n`);
}
