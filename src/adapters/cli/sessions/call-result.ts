// What every route of a command shares around a tool call: the identity its global flags give, and
// an envelope turned into data or a CLI error. No transport here (tool-session.ts opens those).
import { AopError, type Envelope } from "../../../core/errors.js";
import type { IdentityOverrides } from "../../../runtime/run-context.js";
import type { CliContext } from "../program/context.js";

export function identityFromGlobals(ctx: CliContext): IdentityOverrides {
  return { run_id: ctx.globals.runId, session_id: ctx.globals.sessionId, actor: ctx.globals.actor };
}

/** The data of a successful envelope; an error envelope becomes an AopError with the same code. */
export function unwrap<T>(envelope: Envelope): T {
  if (envelope.ok) return envelope.data as T;
  throw AopError.fromBody(envelope.error);
}
