import { check } from "../../../../src/domains/doctor/checks/drift-011-evidence-integrity-off.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { buildChain, gateWorkspace, INTEGRITY_POLICY_YAML, policyWith, type GateWorkspace } from "../../../helpers/gates.js";

testCheck(check, {
  now: "2026-03-02T00:00:00.000Z",
  build: (make: () => Promise<GateWorkspace>) => make(),
  valid: [
    {
      name: "integrity on, gates ran",
      workspace: async () => {
        const ws = await gateWorkspace({ policyYaml: INTEGRITY_POLICY_YAML });
        await buildChain(ws.layout, ws.clock, "feat_a", 1);
        return ws;
      },
      ok: "evidence integrity is on",
    },
    { name: "integrity off, but no gate has run", workspace: () => gateWorkspace(), ok: "no gate has run" },
  ],
  invalid: [
    {
      name: "integrity off and gates ran: one info finding naming the features",
      workspace: async () => {
        const ws = await gateWorkspace();
        await buildChain(ws.layout, ws.clock, "feat_a", 2, { policy: policyWith(false) });
        return ws;
      },
      findings: [{ message: /^evidence integrity is off in policy .* gates have run for feat_a: /, refs: [".aop/features/feat_a/evidence"], remediation: /evidence_integrity\.enabled to true/ }],
    },
  ],
});
