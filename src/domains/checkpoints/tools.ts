// MCP/in-process tool handlers for checkpoints. Thin: they call the services and return the views
// the CLI prints too. A skill may read a sibling's header, progress, primer and blockers, never its skill_state.
import { AopError } from "../../core/errors.js";
import { applyMergePatch } from "../../core/merge.js";
import type { ToolArgs, ToolContext, ToolHandlers } from "../../catalog/tool-types.js";
import { applyAssignments, fromToolAssignment } from "./assignments.js";
import { completeNextAction } from "./done-service.js";
import { nextAction } from "./orientation-service.js";
import { readSkill, scanFolder, validateReport } from "./read-service.js";
import { userShell } from "./verify-command.js";
import { checkpointView, doneView, listView, nextView, updateView } from "./views.js";
import { initCheckpoints, resetCheckpoint, updateCheckpoint } from "./write-service.js";

/** Only the policy's allow-listed variables reach a done_when run, from the CLI and over MCP alike. */
function allowedEnv(ctx: ToolContext): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ctx.policy.execution.env_allowlist) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

/** What a done_when run writes, as it arrives (the in-process CLI shows it on stderr). */
export interface DoneWhenOutput {
  done_when_output: Buffer;
}

type UpdateArgs = ToolArgs<"checkpoint.update">;

function updateMutation(args: UpdateArgs): (document: Record<string, unknown>) => Record<string, unknown> {
  if ((args.patch === undefined) === (args.assignments === undefined)) throw new AopError("invalid_argument", "give either patch (a JSON Merge Patch) or assignments (changes on dotted paths), not both and not neither");
  if (args.patch !== undefined) {
    const patch = args.patch;
    if ("updated_at" in patch) throw new AopError("invalid_argument", "updated_at is stamped by checkpoint.update itself: leave it out of the patch");
    if ("skill_state" in patch && args.as_skill !== args.skill) throw skillStatePrivate(args.skill);
    return (document) => applyMergePatch(document, patch) as Record<string, unknown>;
  }
  const assignments = args.assignments!.map(fromToolAssignment);
  if (assignments.some((a) => a.path[0] === "skill_state") && args.as_skill !== args.skill) throw skillStatePrivate(args.skill);
  return (document) => applyAssignments(document, assignments);
}

function skillStatePrivate(skill: string): AopError {
  return new AopError("invalid_argument", `skill_state of ${skill} is private to that skill: pass as_skill: "${skill}" only when you are that skill`);
}

export const handlers: ToolHandlers = {
  "checkpoint.list": async (_args, ctx) => listView(ctx.layout, await scanFolder(ctx)),

  "checkpoint.get": async (args, ctx) => checkpointView(await readSkill(ctx, args.skill), args.as_skill),

  "checkpoint.validate": async (args, ctx) => validateReport(await scanFolder(ctx, { keepDocuments: false }), args.strict === true),

  "checkpoint.next": async (_args, ctx) => nextView((await nextAction(ctx)).pick),

  "checkpoint.update": async (args, ctx) => updateView(await updateCheckpoint(ctx, args.skill, updateMutation(args)), args.as_skill),

  "checkpoint.done": async (args, ctx) => {
    const timeoutMs = (args.timeout_seconds ?? ctx.policy.execution.default_step_timeout_seconds) * 1000;
    const onOutput = ctx.progress ? (chunk: Buffer) => ctx.progress!({ done_when_output: chunk } satisfies DoneWhenOutput) : undefined;
    const outcome = await completeNextAction(ctx, args.skill, {
      // The shell is the user's; the command sees only the allow-listed environment.
      ...(args.verify ? { verify: { timeoutMs, env: allowedEnv(ctx), shell: userShell(process.env), ...(onOutput ? { onOutput } : {}), ...(ctx.signal ? { signal: ctx.signal } : {}) } } : {}),
      ...(args.status ? { status: args.status } : {}),
    });
    return doneView(outcome);
  },

  "checkpoint.reset": async (args, ctx) => resetCheckpoint(ctx, args.skill),

  "checkpoint.init": async (_args, ctx) => {
    const result = initCheckpoints(ctx);
    return { dir: ctx.layout.relative(result.dir), created: result.created, kept: result.kept };
  },
};
