// checkpoint update <skill> --k=v --k+=v --k:json=<json>: read → merge → validate → atomic write under
// the file's lock; prints why when the result would be invalid (and writes nothing).
import { applyAssignments, parseAssignments } from "../../../domains/checkpoints/index.js";
import { updateCheckpoint } from "../../../domains/checkpoints/index.js";
import type { CliContext } from "../context.js";
import { usageError } from "../run-command.js";
import { problemLine } from "../output/checkpoint-format.js";

export async function run(ctx: CliContext, _opts: Record<string, unknown>, skill: unknown, assignments: unknown): Promise<number> {
  const flags = Array.isArray(assignments) ? (assignments as string[]) : [];
  const stray = flags.find((f) => !f.startsWith("--"));
  if (stray !== undefined) throw usageError(`'${stray}' is not an assignment`, "write --path=text, --path+=text or --path:json=<json> (quote values with spaces)");
  if (flags.length === 0) throw usageError("nothing to update: give at least one --path=value", `e.g. checkpoint update ${String(skill)} --step=review`);
  const parsed = parseAssignments(flags);
  const result = await updateCheckpoint(ctx, String(skill), (document) => applyAssignments(document, parsed));
  if (ctx.json) {
    ctx.printJson({ skill: result.skill, file: result.file, created: result.created, updated_at: result.checkpoint.updated_at, warnings: result.warnings });
    return 0;
  }
  const where = ctx.layout.relative(ctx.layout.checkpointFile(result.skill));
  ctx.out(`${result.created ? ctx.style.green("created") : ctx.style.green("updated")} ${where} (${parsed.length} change${parsed.length === 1 ? "" : "s"}, updated_at ${result.checkpoint.updated_at})`);
  for (const w of result.warnings) ctx.out(problemLine("warning", w, ctx.style));
  return 0;
}
