// checkpoint update <skill> --k=v --k+=v --k:json=<json>: the checkpoint.update tool (read → merge →
// validate → atomic write under the file's lock); prints why when the result would be invalid (and
// writes nothing). The flags are parsed here, so a malformed one is a usage error before any call.
import { parseAssignments, toToolAssignment } from "../../../domains/checkpoints/index.js";
import type { CliContext } from "../program/context.js";
import { usageError } from "../program/run-command.js";
import { problemLine } from "../output/checkpoint-format.js";

export async function run(ctx: CliContext, opts: Record<string, unknown>, skill: unknown, assignments: unknown): Promise<number> {
  const flags = Array.isArray(assignments) ? (assignments as string[]) : [];
  const stray = flags.find((f) => !f.startsWith("--"));
  if (stray !== undefined) throw usageError(`'${stray}' is not an assignment`, "write --path=text, --path+=text or --path:json=<json> (quote values with spaces)");
  if (flags.length === 0) throw usageError("nothing to update: give at least one --path=value", `e.g. checkpoint update ${String(skill)} --step=review`);
  const parsed = parseAssignments(flags);
  const { callTool, withOperationId } = await import("../sessions/tool-session.js");
  // The operator edits the file as the skill itself: skill_state included.
  const args = { skill: String(skill), as_skill: String(skill), assignments: parsed.map(toToolAssignment) };
  const data = await callTool(ctx, "checkpoint.update", withOperationId(args, opts.operationId));
  if (ctx.json) {
    ctx.printJson(data);
    return 0;
  }
  const where = ctx.layout.relative(ctx.layout.checkpointFile(data.skill));
  ctx.out(`${ctx.style.green(data.created ? "created" : "updated")} ${where} (${parsed.length} change${parsed.length === 1 ? "" : "s"}, updated_at ${data.updated_at})`);
  for (const w of data.warnings) ctx.out(problemLine("warning", w, ctx.style));
  return 0;
}
