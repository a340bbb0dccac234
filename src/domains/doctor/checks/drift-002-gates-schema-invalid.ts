// DRIFT_002: gates.yaml cannot be parsed or is invalid.
import type { DoctorCheck } from "../check-types.js";
import { readGates } from "../workspace-reads.js";
import { upstreamConfigNotice } from "../upstream-config.js";

export const check: DoctorCheck = {
  id: "DRIFT_002_GATES_SCHEMA_INVALID",
  severity: "critical",
  title: "gates.yaml is valid",
  remediation: "fix agentic/orchestrator/gates.yaml as the message says, then run `aop config check`",
  async run(ctx) {
    const { problems } = await readGates(ctx);
    return {
      findings: [
        ...problems.map((p) => ({ message: `${p.file}: ${p.path === "" ? "" : p.path + " "}${p.message}`, ...(p.hint ? { remediation: p.hint } : {}), refs: ["agentic/orchestrator/gates.yaml"] })),
        ...upstreamConfigNotice(ctx, "gates.yaml", ctx.layout.gatesFile, "aop has no gate profiles to run"),
      ],
      okMessage: "gates.yaml is valid or absent",
    };
  },
};
