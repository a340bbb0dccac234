// Finishing a gates.run whose process was killed after its evidence file was written (docs/evidence.md,
// "Interrupted runs"): the retry publishes that evidence (chain, manifest, latest-<mode>.json, state) instead
// of running the steps again, and returns what the killed call would have returned.
import type { LandedEffect, ToolContext } from "../../catalog/tool-types.js";
import { gateSigner, sealGateRun } from "../attest/index.js";
import { readWrittenEvidence, republishGateEvidence } from "../evidence/index.js";
import { gateRunReport, type GateRunReport, type RunGateInput } from "./gate-service.js";

const EVIDENCE_FILE = /\/evidence\/gate-[^/]+\.json$/;

export async function recoverGateRun(args: RunGateInput, effects: readonly LandedEffect[], ctx: ToolContext): Promise<GateRunReport | null> {
  const created = effects.find((e) => e.kind === "create" && e.state === "applied" && EVIDENCE_FILE.test(e.path));
  if (!created) return null;
  const written = readWrittenEvidence(ctx.layout, created.path);
  if (!written || written.evidence.feature_id !== args.feature_id || written.evidence.mode !== args.mode) return null;
  const commit = await republishGateEvidence(ctx.layout, ctx.clock, ctx.policy, written, { warn: (m) => ctx.warn(m) });
  // Signing is idempotent (an attestation is never replaced, an unchanged chain is not re-anchored).
  const seal = await sealGateRun(ctx.layout, ctx.clock, ctx.policy, gateSigner(ctx.layout, ctx.policy), written, commit.chain, (m) => ctx.warn(m));
  return gateRunReport(ctx.layout, written, commit, seal);
}
