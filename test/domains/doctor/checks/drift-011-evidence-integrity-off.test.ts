import { describe, expect, it } from "vitest";
import { check } from "../../../../src/domains/doctor/checks/drift-011-evidence-integrity-off.js";
import { fixedClock } from "../../../../src/core/clock.js";
import { loadPolicyTolerant } from "../../../../src/config/policy-loader.js";
import { createDoctorContext, toFinding } from "../../../../src/domains/doctor/check-types.js";
import { buildChain, gateWorkspace, INTEGRITY_POLICY_YAML, policyWith, type GateWorkspace } from "../../../helpers/gates.js";

async function run(ws: GateWorkspace) {
  const { policy, problems } = await loadPolicyTolerant(ws.layout);
  const ctx = createDoctorContext({ layout: ws.layout, clock: fixedClock("2026-03-02T00:00:00.000Z"), policy, policyProblems: problems, env: {}, homeDir: ws.root });
  return (await check.run(ctx)).findings.map((d) => toFinding(check, d));
}

describe(check.id, () => {
  it("healthy: integrity on, gates ran", async () => {
    const ws = await gateWorkspace({ policyYaml: INTEGRITY_POLICY_YAML });
    await buildChain(ws.layout, ws.clock, "feat_a", 1);
    expect(await run(ws)).toEqual([]);
  });

  it("healthy: integrity off, but no gate has run", async () => {
    expect(await run(await gateWorkspace())).toEqual([]);
  });

  it("integrity off and gates ran: one info finding naming the features", async () => {
    const ws = await gateWorkspace();
    await buildChain(ws.layout, ws.clock, "feat_a", 2, { policy: policyWith(false) });
    const findings = await run(ws);
    expect(findings).toEqual([
      expect.objectContaining({ id: "DRIFT_011_EVIDENCE_INTEGRITY_OFF", severity: "info", message: expect.stringMatching(/^evidence integrity is off in policy .* gates have run for feat_a: /), refs: [".aop/features/feat_a/evidence"] }),
    ]);
    expect(findings[0]!.remediation).toMatch(/evidence_integrity\.enabled to true/);
  });
});
