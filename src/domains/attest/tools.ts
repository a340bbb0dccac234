// Tool handlers for the verifiable-evidence tools: evidence.verify_chain (chain, attestations, anchors),
// evidence.attest and evidence.anchor (mutating: they sign) and evidence.prove (read-only).
import type { ToolHandlers } from "../../catalog/tool-types.js";
import { anchorFeature } from "./anchor-service.js";
import { attestOnDemand, type AttestRequest } from "./attest-on-demand.js";
import { processKeyEnvironment } from "./key-environment.js";
import { proveEntry } from "./prove-entry.js";
import { readCommittedKeys } from "./public-keys.js";
import { verifyEvidence } from "./verify-evidence.js";
import { verifyVerdict } from "./verify-verdict.js";
import { evidenceIntegrityEnabled } from "../../config/policy-types.js";
import { workspaceSigner } from "./workspace-signer.js";

export const handlers: ToolHandlers = {
  // A chain that does not verify is answered as an error carrying the report (verify-verdict.ts).
  "evidence.verify_chain": async (args: { feature_id: string; anchor_note?: string }, ctx) =>
    verifyVerdict(
      await verifyEvidence(ctx.layout, ctx.clock, args.feature_id, {
        ...(args.anchor_note !== undefined ? { anchorNote: args.anchor_note } : {}),
        ...(ctx.progress ? { onProgress: (walked: number, expected: number | null, again?: string) => ctx.progress!({ walked, expected, ...(again ? { again } : {}) }) } : {}),
      }),
      evidenceIntegrityEnabled(ctx.policy),
    ),
  "evidence.attest": async (args: AttestRequest, ctx) => attestOnDemand(ctx.layout, workspaceSigner(ctx.layout, processKeyEnvironment()), args, (m) => ctx.warn(m)),
  "evidence.anchor": async (args: { feature_id: string; git?: boolean }, ctx) => {
    const signer = workspaceSigner(ctx.layout, processKeyEnvironment());
    return anchorFeature(ctx.layout, ctx.clock, signer, readCommittedKeys(ctx.layout).keys.values(), args.feature_id, { git: args.git === true, warn: (m) => ctx.warn(m) });
  },
  "evidence.prove": async (args: { feature_id: string; sequence: number }, ctx) => proveEntry(ctx.layout, readCommittedKeys(ctx.layout).keys.values(), args.feature_id, args.sequence),
};
