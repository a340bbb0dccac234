// Tool handlers for `evidence.latest` and `evidence.verify_chain` (both read-only).
import type { ToolHandlers } from "../../catalog/tool-types.js";
import { latestEvidence } from "./evidence-latest.js";
import { verifyFeatureChain } from "./evidence-verify.js";

export const handlers: ToolHandlers = {
  "evidence.latest": async (args, ctx) => latestEvidence(ctx.layout, ctx.clock, ctx.policy, args, (m) => ctx.warn(m)),
  "evidence.verify_chain": async (args, ctx) =>
    verifyFeatureChain(ctx.layout, ctx.clock, args.feature_id, ctx.progress ? { onProgress: (walked, expected) => ctx.progress!({ walked, expected }) } : {}),
};
