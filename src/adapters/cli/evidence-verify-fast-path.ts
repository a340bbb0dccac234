// A commander-free route for `aop evidence verify` (CI runs it on every merge): the program's flags and
// the command's own (declared once, evidence/verify-command.ts), the same body, through a runtime
// serving only evidence.verify_chain — the same pipeline (policy, RBAC, schemas, the call recorded in
// the current run). Anything else (help, unknown or misplaced flags, --transport mcp) returns false and
// goes through the full program. bin/aop.js runs it from a one-file bundle (scripts/bundle-bins.mjs).
import { provideValidators } from "../../catalog/load-validator.js";
import { createEvidenceVerifyRuntime } from "../../app/evidence-verify-runtime.js";
import { inProcessClient } from "../../app/clients/in-process.js";
import { identityFromGlobals } from "./call-result.js";
import { withOpenClient } from "./client-session.js";
import { AOP_GLOBAL_FLAGS } from "./command-registry.js";
import type { GlobalOptions } from "./context.js";
import { VERIFY_FLAGS, verifyEvidenceCommand, type ToolSession } from "./evidence/verify-command.js";
import { parseRouteFlags } from "./flags.js";
import { PIPELINE_VALIDATORS } from "./route-validators.js";
import { runBody } from "./run-command.js";

/** The options of a plain `aop evidence verify`, or null when the full program must handle argv. */
export function parseFastVerify(argv: readonly string[]): (Record<string, unknown> & GlobalOptions) | null {
  return parseRouteFlags(argv, ["evidence", "verify"], AOP_GLOBAL_FLAGS, VERIFY_FLAGS) ?? null;
}

/** Calls through the lean runtime, in this process. */
const leanSession: ToolSession = async (ctx, fn) => {
  const runtime = await createEvidenceVerifyRuntime({ layout: ctx.layout, clock: ctx.clock, identity: identityFromGlobals(ctx), warn: (m) => ctx.err(`warning: ${m}`) });
  return withOpenClient(inProcessClient(runtime), fn);
};

/** Verifies when argv is a plain `aop evidence verify`; false when the full program must handle it. */
export async function tryFastVerify(argv: readonly string[]): Promise<boolean> {
  const opts = parseFastVerify(argv);
  if (!opts) return false;
  // Literal paths, so the bundle holds these validators.
  provideValidators({
    ...PIPELINE_VALIDATORS,
    "input/evidence.verify_chain": () => import("../../catalog/generated/validators/input__evidence.verify_chain.js"),
    "output/evidence.verify_chain": () => import("../../catalog/generated/validators/output__evidence.verify_chain.js"),
  });
  await runBody((ctx, o) => verifyEvidenceCommand(ctx, o, leanSession), opts, []);
  return true;
}
