// MCP/in-process tool handlers for checkpoints. Thin: they call the same services as the CLI.
// A skill may read a sibling's header, progress, primer and blockers, never its skill_state.
import { AopError } from "../../core/errors.js";
import type { ToolContext, ToolHandlers } from "../../catalog/tool-types.js";
import type { Checkpoint } from "./checkpoint-types.js";
import { applyMergePatch, isPlainObject } from "./merge-patch.js";
import { completeNextAction } from "./done-service.js";
import { nextAction } from "./orientation-service.js";
import { getCheckpoint, listEntries, scanFolder, validateReport, visibleTo } from "./read-service.js";
import { updateCheckpoint } from "./write-service.js";

/** Only the policy's allow-listed variables reach a done_when run from a tool call. */
function allowedEnv(ctx: ToolContext): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ctx.policy.execution.env_allowlist) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

export const handlers: ToolHandlers = {
  "checkpoint.list": async (_args: Record<string, never>, ctx) => {
    const scan = await scanFolder(ctx);
    return { dir: ctx.layout.relative(scan.dir), exists: scan.exists, checkpoints: listEntries(scan) };
  },

  "checkpoint.get": async (args: { skill: string; as_skill?: string }, ctx) => {
    const { entry, document, skillStateOmitted } = await getCheckpoint(ctx, args.skill, args.as_skill);
    return { skill: entry.skill, file: entry.file, valid: entry.errors.length === 0, errors: entry.errors, warnings: entry.warnings, skill_state_omitted: skillStateOmitted, checkpoint: isPlainObject(document) ? document : null };
  },

  "checkpoint.validate": async (args: { strict?: boolean }, ctx) => validateReport(await scanFolder(ctx, { keepDocuments: false }), args.strict === true),

  "checkpoint.next": async (_args: Record<string, never>, ctx) => {
    const { pick } = await nextAction(ctx);
    if (!pick) return { skill: null, status: null, why: "no checkpoint asks for anything", action: null };
    return { skill: pick.skill, status: pick.status, why: pick.why, action: pick.action };
  },

  "checkpoint.update": async (args: { skill: string; patch: Record<string, unknown>; as_skill?: string }, ctx) => {
    if ("skill_state" in args.patch && args.as_skill !== args.skill) {
      throw new AopError("invalid_argument", `skill_state of ${args.skill} is private to that skill: pass as_skill: "${args.skill}" only when you are that skill`);
    }
    if ("updated_at" in args.patch) throw new AopError("invalid_argument", "updated_at is stamped by checkpoint.update itself: leave it out of the patch");
    const result = await updateCheckpoint(ctx, args.skill, (document) => applyMergePatch(document, args.patch) as Record<string, unknown>);
    return { skill: result.skill, file: result.file, created: result.created, updated_at: result.checkpoint.updated_at, warnings: result.warnings, checkpoint: visibleTo(result.checkpoint, args.skill, args.as_skill).document };
  },

  "checkpoint.done": async (args: { skill: string; verify?: boolean; status?: Checkpoint["status"]; timeout_seconds?: number }, ctx) => {
    const timeoutMs = (args.timeout_seconds ?? ctx.policy.execution.default_step_timeout_seconds) * 1000;
    const outcome = await completeNextAction(ctx, args.skill, {
      ...(args.verify ? { verify: { timeoutMs, env: allowedEnv(ctx), ...(ctx.signal ? { signal: ctx.signal } : {}) } } : {}),
      ...(args.status ? { status: args.status } : {}),
    });
    const run = outcome.verify;
    const verify = run ? { command: run.command, exit_code: run.exit_code, timed_out: run.timed_out, duration_ms: run.duration_ms, output: run.output } : null;
    return { skill: outcome.skill, done: outcome.done, next_action: outcome.next_action, remaining: outcome.remaining, status: outcome.checkpoint.status, warnings: outcome.warnings, verify };
  },
};
