// Who is calling and in which run (docs/kernel.md): explicit option > AOP_* env > active lease > adhoc-<date>.
import { AopError } from "../core/errors.js";
import type { Clock } from "../core/clock.js";
import { validateId } from "../core/ids.js";
import { isRole, ROLES } from "../config/policy-types.js";
import type { WorkspaceLayout } from "../store/layout.js";
import type { CallIdentity } from "../catalog/tool-types.js";

export interface IdentityOverrides {
  run_id?: string | undefined;
  session_id?: string | undefined;
  actor?: string | undefined;
}

export function resolveActor(explicit: string | undefined, env: NodeJS.ProcessEnv, fallback = "orchestrator"): CallIdentity["actor_type"] {
  const actor = explicit ?? env.AOP_ACTOR ?? fallback;
  if (!isRole(actor)) {
    throw new AopError("invalid_argument", `actor must be one of ${ROLES.join(", ")} (got '${actor}')`, { details: { field: "actor", value: actor }, hint: "pass --actor or set AOP_ACTOR" });
  }
  return actor;
}

const DAY_MS = 86_400_000;
let adhocCache: { day: number; id: string } | undefined;

export function adhocRunId(clock: Clock): string {
  const day = Math.floor(clock.now() / DAY_MS);
  if (adhocCache?.day !== day) adhocCache = { day, id: `adhoc-${new Date(day * DAY_MS).toISOString().slice(0, 10)}` };
  return adhocCache.id;
}

/** The run of a call that names none (the composition root passes the active run lease's). */
export type ActiveRunId = (layout: WorkspaceLayout, clock: Clock) => string | null;

export function resolveIdentity(layout: WorkspaceLayout, clock: Clock, overrides: IdentityOverrides, env: NodeJS.ProcessEnv = process.env, activeRunId?: ActiveRunId): CallIdentity {
  const actor_type = resolveActor(overrides.actor, env);
  const sessionRaw = overrides.session_id ?? env.AOP_SESSION_ID ?? null;
  const session_id = sessionRaw === null || sessionRaw === "" ? null : validateId("session_id", sessionRaw);
  const explicitRun = overrides.run_id ?? env.AOP_RUN_ID;
  const run_id = explicitRun ? validateId("run_id", explicitRun) : (activeRunId?.(layout, clock) ?? adhocRunId(clock));
  return { run_id, session_id, actor_type };
}
