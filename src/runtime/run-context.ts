// Who is calling and in which run (docs/kernel.md): explicit option > AOP_* env > active lease > adhoc-<date>.
import { AopError } from "../core/errors.js";
import { isoUtc, type Clock } from "../core/clock.js";
import { validateId } from "../core/ids.js";
import { isRole, ROLES } from "../config/policy-types.js";
import type { WorkspaceLayout } from "../store/layout.js";
import type { CallIdentity } from "../catalog/tool-types.js";

export interface IdentityOverrides {
  run_id?: string | undefined;
  session_id?: string | undefined;
  actor?: string | undefined;
}

/** The explicit value, else the environment's; an empty string from either is refused, never "absent". */
function given(explicit: string | undefined, env: NodeJS.ProcessEnv, variable: string, field: string): string | undefined {
  const value = explicit ?? env[variable];
  if (value === "") {
    const source = explicit === "" ? field : variable;
    throw new AopError("invalid_argument", `${source} is empty; an empty value does not mean "not set"`, { details: { field: source }, hint: `give ${source} a value, or leave it out` });
  }
  return value;
}

export function resolveActor(explicit: string | undefined, env: NodeJS.ProcessEnv, fallback = "orchestrator"): CallIdentity["actor_type"] {
  const actor = given(explicit, env, "AOP_ACTOR", "actor") ?? fallback;
  if (!isRole(actor)) {
    throw new AopError("invalid_argument", `actor must be one of ${ROLES.join(", ")} (got '${actor}')`, { details: { field: "actor", value: actor }, hint: "pass --actor or set AOP_ACTOR" });
  }
  return actor;
}

const DAY_MS = 86_400_000;
let adhocCache: { day: number; id: string } | undefined;

function adhocRunId(clock: Clock): string {
  const day = Math.floor(clock.now() / DAY_MS);
  if (adhocCache?.day !== day) adhocCache = { day, id: `adhoc-${isoUtc(day * DAY_MS).slice(0, 10)}` };
  return adhocCache.id;
}

/** The run of a call that names none (the composition root passes the active run lease's). */
export type ActiveRunId = (layout: WorkspaceLayout, clock: Clock) => string | null;

export function resolveIdentity(layout: WorkspaceLayout, clock: Clock, overrides: IdentityOverrides, env: NodeJS.ProcessEnv = process.env, activeRunId?: ActiveRunId): CallIdentity {
  const actor_type = resolveActor(overrides.actor, env);
  const sessionRaw = given(overrides.session_id, env, "AOP_SESSION_ID", "session_id");
  const session_id = sessionRaw === undefined ? null : validateId("session_id", sessionRaw);
  const explicitRun = given(overrides.run_id, env, "AOP_RUN_ID", "run_id");
  const run_id = explicitRun !== undefined ? validateId("run_id", explicitRun) : (activeRunId?.(layout, clock) ?? adhocRunId(clock));
  return { run_id, session_id, actor_type };
}
