// Tool handler for `evidence.latest` (read-only). `evidence.verify_chain` checks attestations and anchors
// too, so the attest domain serves it (src/domains/attest/tools.ts) over this domain's chain verifier.
import type { ToolHandlers } from "../../catalog/tool-types.js";
import { latestEvidence } from "./evidence-latest.js";

export const handlers: ToolHandlers = {
  "evidence.latest": async (args, ctx) => latestEvidence(ctx.layout, ctx.clock, ctx.policy, args, (m) => ctx.warn(m)),
};
