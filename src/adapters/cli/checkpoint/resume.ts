// checkpoint resume <skill>: the orientation block a new session reads first, as Markdown (or --json).
import { renderResumeMarkdown, resumeSkill } from "../../../domains/checkpoints/index.js";
import { staleDaysFor } from "./stale-days.js";
import { escapeControl } from "../output/escape.js";
import type { CliContext } from "../program/context.js";

export async function run(ctx: CliContext, _opts: Record<string, unknown>, skill: unknown): Promise<number> {
  const block = await resumeSkill(ctx, String(skill), await staleDaysFor(ctx));
  if (ctx.json) {
    ctx.printJson(block);
    return 0;
  }
  ctx.out(escapeControl(renderResumeMarkdown(block))); // plain text: no color of ours to keep
  return 0;
}
