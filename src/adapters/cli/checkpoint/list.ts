// checkpoint list: one line per checkpoint file; --json is checkpoint.list's result.
import { listView, scanFolder } from "../../../domains/checkpoints/index.js";
import type { CliContext } from "../program/context.js";
import { folderLabel, shortTime } from "../output/checkpoint-format.js";
import { renderTable } from "../output/table.js";

export async function run(ctx: CliContext): Promise<number> {
  const scan = await scanFolder(ctx);
  const view = listView(ctx.layout, scan);
  const entries = view.checkpoints;
  if (ctx.json) {
    ctx.printJson(view);
    return 0;
  }
  const where = folderLabel(ctx.layout.relative(scan.dir), scan.dir);
  if (entries.length === 0) {
    ctx.out(scan.exists ? `no checkpoints in ${where}` : `no checkpoints folder at ${where}`);
    return 0;
  }
  const s = ctx.style;
  const rows = entries.map((e) => [e.skill, e.status ?? "-", e.phase ?? "-", e.step ?? "-", shortTime(e.updated_at), e.valid ? (e.warnings > 0 ? s.yellow(`ok, ${e.warnings} warning${e.warnings === 1 ? "" : "s"}`) : s.green("ok")) : s.red(`${e.errors} error${e.errors === 1 ? "" : "s"}`)]);
  ctx.out(renderTable([{ header: "skill" }, { header: "status" }, { header: "phase" }, { header: "step" }, { header: "updated" }, { header: "valid" }], rows));
  return 0;
}
