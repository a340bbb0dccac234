import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { check } from "../../../../src/domains/doctor/checks/drift-007-evidence-chain-invalid.js";
import { fixedClock } from "../../../../src/core/clock.js";
import { loadPolicyTolerant } from "../../../../src/config/policy-loader.js";
import { createDoctorContext, toFinding } from "../../../../src/domains/doctor/check-types.js";
import { buildChain, gateWorkspace, INTEGRITY_POLICY_YAML, type GateWorkspace } from "../../../helpers/gates.js";

async function run(ws: GateWorkspace) {
  const { policy, problems } = await loadPolicyTolerant(ws.layout);
  const ctx = createDoctorContext({ layout: ws.layout, clock: fixedClock("2026-03-02T00:00:00.000Z"), policy, policyProblems: problems, env: {}, homeDir: ws.root });
  return (await check.run(ctx)).findings.map((d) => toFinding(check, d));
}

async function chained(count = 3): Promise<GateWorkspace> {
  const ws = await gateWorkspace({ policyYaml: INTEGRITY_POLICY_YAML });
  await buildChain(ws.layout, ws.clock, "feat_a", count);
  return ws;
}

describe(check.id, () => {
  it("healthy: an intact chain gives no finding", async () => {
    expect(await run(await chained())).toEqual([]);
  });

  it("healthy: integrity enabled but no chain yet", async () => {
    expect(await run(await gateWorkspace({ policyYaml: INTEGRITY_POLICY_YAML }))).toEqual([]);
  });

  it("integrity off: no finding under this id, even where gates ran (DRIFT_011 says integrity is off)", async () => {
    const ws = await gateWorkspace();
    await buildChain(ws.layout, ws.clock, "feat_a", 1);
    expect(await run(ws)).toEqual([]);
  });

  it("broken: a byte flipped in a chained artifact is reported with its sequence and code", async () => {
    const ws = await chained();
    const evidence = fs.readdirSync(ws.layout.evidenceDir("feat_a")).filter((f) => f.startsWith("gate-")).sort();
    const target = `${ws.layout.evidenceDir("feat_a")}/${evidence[1]}`;
    const bytes = fs.readFileSync(target);
    bytes[10] = bytes[10]! ^ 1;
    fs.writeFileSync(target, bytes);
    const findings = await run(ws);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ severity: "warning", message: expect.stringMatching(/feature feat_a: chain invalid at sequence 1: evidence_chain_hash_mismatch/) });
    // The fix names the file to restore and the reset that starts over; never a re-run of the gate.
    expect(findings[0]!.remediation).toMatch(new RegExp(`^restore ${ws.layout.relative(target).replace(/\./g, "\\.")} from git .*aop evidence reset-chain --feature-id feat_a --reason`));
    expect(findings[0]!.remediation).not.toMatch(/re-run/);
  });

  it("broken: the last line removed (the manifest says more)", async () => {
    const ws = await chained();
    const chain = ws.layout.chainFile("feat_a");
    const lines = fs.readFileSync(chain, "utf8").trimEnd().split("\n");
    fs.writeFileSync(chain, lines.slice(0, -1).join("\n") + "\n");
    const findings = await run(ws);
    expect(findings[0]!.message).toMatch(/evidence_chain_discontinuity/);
    expect(findings[0]!.remediation).toMatch(/^restore \.aop\/features\/feat_a\/evidence\/ \(chain\.jsonl, manifest\.integrity\.json/);
  });

  it("only reads: the manifest's last_verified_* fields are left untouched", async () => {
    const ws = await chained();
    const before = fs.readFileSync(ws.layout.manifestFile("feat_a"));
    await run(ws);
    expect(fs.readFileSync(ws.layout.manifestFile("feat_a"))).toEqual(before);
  });
});
