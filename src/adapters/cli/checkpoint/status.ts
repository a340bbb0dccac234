// checkpoint status [--brief] [--since ISO]: decisions waiting on the user first, then a table of every
// skill, then per skill its summary, numbered next actions and blockers.
import { actionText, type CheckedCheckpoint, type Checkpoint } from "../../../domains/checkpoints/index.js";
import { scanFolder } from "../../../domains/checkpoints/index.js";
import { buildResumeBlock, type ResumeBlock } from "../../../domains/checkpoints/index.js";
import type { StaleDays } from "../../../domains/checkpoints/index.js";
import { staleDaysFor } from "./stale-days.js";
import { parseUserInstant } from "../../../core/instant.js";
import type { CliContext } from "../program/context.js";
import { usageError } from "../program/run-command.js";
import { folderLabel, shortTime } from "../output/checkpoint-format.js";
import { renderTable } from "../output/table.js";
import { escapeInline } from "../output/escape.js";
import { escapeInline as esc } from "../output/escape.js";
import { formatAge } from "../../../core/time-format.js";
import { compareText } from "../../../core/compare-text.js";

/** One skill in the status view: the resume block's facts plus every queued action and blocker. */
type StatusRow = Pick<ResumeBlock, "skill" | "phase" | "step" | "status" | "updated_at" | "age_ms" | "stale" | "stale_threshold_days" | "progress" | "progress_summary"> & {
  file: string;
  next_actions: string[];
  blockers: NonNullable<Checkpoint["blockers"]>;
};

function buildRows(files: CheckedCheckpoint[], now: number, staleDays: StaleDays): StatusRow[] {
  return files.flatMap((f) => {
    const c = f.checkpoint;
    if (!c) return [];
    const b = buildResumeBlock(c, now, staleDays);
    return [{
      skill: b.skill, file: f.file, phase: b.phase, step: b.step, status: b.status, updated_at: b.updated_at,
      age_ms: b.age_ms, stale: b.stale, stale_threshold_days: b.stale_threshold_days, progress: b.progress,
      progress_summary: b.progress_summary, next_actions: (c.next_actions ?? []).map(actionText), blockers: c.blockers ?? [],
    }];
  });
}

export async function run(ctx: CliContext, opts: Record<string, unknown>): Promise<number> {
  const since = opts.since as string | undefined;
  const sinceMs = since === undefined ? -Infinity : parseUserInstant(since);
  if (Number.isNaN(sinceMs)) throw usageError(`--since must be a real ISO 8601 date or time (got '${since}')`, "e.g. --since 2026-03-01T00:00:00Z");
  const scan = await scanFolder(ctx);
  const now = ctx.clock.now();
  const all = buildRows(scan.files, now, await staleDaysFor(ctx));
  const rows = all.filter((r) => Date.parse(r.updated_at) >= sinceMs).sort((a, b) => Date.parse(b.updated_at) - Date.parse(a.updated_at) || compareText(a.skill, b.skill));
  const decisions = rows.flatMap((r) => r.blockers.filter((b) => b.needs === "user_decision").map((b) => ({ skill: r.skill, blocker_id: b.id, description: b.description, proposed_resolution: b.proposed_resolution ?? null })));
  const invalid = scan.files.filter((f) => !f.checkpoint).map((f) => ({ file: f.file, skill: f.skill, errors: f.errors }));
  if (ctx.json) {
    ctx.printJson({ checkpoints: rows, decisions, invalid });
    return 0;
  }
  const s = ctx.style;
  const where = folderLabel(ctx.layout.relative(scan.dir), scan.dir);
  if (scan.files.length === 0) {
    ctx.out(scan.exists ? `no checkpoints in ${where}` : `no checkpoints folder at ${where} (create one with \`checkpoint init\`)`);
    return 0;
  }
  if (decisions.length > 0) {
    ctx.out(s.bold("Decisions waiting on you"));
    for (const d of decisions) ctx.out(`  ${s.yellow("?")} ${d.skill} · ${esc(d.blocker_id)}: ${esc(d.description)}${d.proposed_resolution ? s.dim(` (proposed: ${esc(d.proposed_resolution)})`) : ""}`);
    ctx.out("");
  }
  if (rows.length === 0) ctx.out(`no checkpoint updated since ${since}`);
  else {
    const table = rows.map((r) => [r.skill, r.phase, r.step, r.status, shortTime(r.updated_at), formatAge(r.age_ms) + (r.stale ? " " + s.red("STALE") : "")]);
    ctx.out(renderTable([{ header: "skill" }, { header: "phase" }, { header: "step" }, { header: "status" }, { header: "updated" }, { header: "age" }], table));
  }
  if (opts.brief !== true) {
    for (const r of rows) {
      ctx.out("");
      ctx.out(`${s.bold(r.skill)} — ${r.status}${r.progress.total > 0 ? `, ${r.progress.done}/${r.progress.total} done` : ""}${r.stale ? s.red(` (stale: over ${r.stale_threshold_days} days)`) : ""}`);
      ctx.out(`  ${esc(r.progress_summary)}`);
      if (r.next_actions.length > 0) {
        ctx.out("  next:");
        r.next_actions.forEach((a, i) => ctx.out(`    ${i + 1}. ${esc(a)}`));
      }
      if (r.blockers.length > 0) {
        ctx.out("  blockers:");
        for (const b of r.blockers) ctx.out(`    - ${esc(b.id)}${b.needs ? ` (${esc(b.needs)})` : ""}: ${esc(b.description)}`);
      }
    }
  }
  if (invalid.length > 0) {
    ctx.out("");
    ctx.out(s.red(`Invalid checkpoints (run \`checkpoint validate\` for every problem):`));
    for (const f of invalid) ctx.out(`  ✗ ${escapeInline(f.file)}: ${escapeInline(`${f.errors[0]!.path === "" ? "" : f.errors[0]!.path + " "}${f.errors[0]!.message}`)}`);
  }
  return 0;
}
