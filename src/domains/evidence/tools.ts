// Tool handlers for `evidence.latest` (read-only) and `evidence.reset_chain` (mutating). `evidence.verify_chain`
// checks attestations and anchors too, so the attest domain serves it (src/domains/attest/tools.ts) over this
// domain's chain verifier.
import type { ToolHandlers } from "../../catalog/tool-types.js";
import { resetChain } from "./chain-reset.js";
import { latestEvidence } from "./evidence-latest.js";

export const handlers: ToolHandlers = {
  "evidence.latest": async (args, ctx) => latestEvidence(ctx.layout, ctx.clock, ctx.policy, args, (m) => ctx.warn(m)),
  "evidence.reset_chain": async (args, ctx) => resetChain(ctx.layout, ctx.clock, args, { run_id: ctx.call.run_id, operation_id: ctx.operation_id }),
};
