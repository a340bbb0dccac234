// The upstream orchestrator keeps its configuration under config/agentic/orchestrator/, with keys and
// meanings of its own; aop reads only agentic/orchestrator/ (docs/compatibility.md). When a workspace
// has the upstream file and not aop's, the doctor says once that aop runs on its bundled defaults.
import fs from "node:fs";
import path from "node:path";
import type { DoctorContext, FindingDraft } from "./check-types.js";

export function upstreamConfigNotice(ctx: DoctorContext, file: "policy.yaml" | "gates.yaml", ours: string, consequence: string): FindingDraft[] {
  const upstream = path.join(ctx.layout.upstreamConfigDir, file);
  if (fs.existsSync(ours) || !fs.existsSync(upstream)) return [];
  const upstreamRef = ctx.layout.relative(upstream);
  const oursRef = ctx.layout.relative(ours);
  return [
    {
      severity: "info",
      message: `${upstreamRef} is the upstream orchestrator's configuration and is not read by aop; without ${oursRef} ${consequence}`,
      remediation: `write the settings aop should use to ${oursRef} (\`aop init\` creates one); the upstream file stays as it is`,
      refs: [upstreamRef],
    },
  ];
}
