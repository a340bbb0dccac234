// Checkpoints for the report: each skill's status, progress and the action `checkpoint next` would
// pick for it, with staleness judged by the policy's stale_days.
import type { Clock } from "../../core/clock.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { rankCheckpoints, scanFolder, staleness, type StaleDays } from "../checkpoints/index.js";
import type { CheckpointsView, CheckpointView } from "./report-types.js";

const MAX_ERRORS_SHOWN = 5;

function text(document: unknown, key: string): string | null {
  if (document === null || typeof document !== "object") return null;
  const value = (document as Record<string, unknown>)[key];
  return typeof value === "string" ? value : null;
}

export async function gatherCheckpoints(layout: WorkspaceLayout, clock: Clock, staleDays: StaleDays): Promise<CheckpointsView> {
  const scan = await scanFolder({ layout, clock });
  const dir = layout.relative(scan.dir) || ".";
  if (!scan.exists) return { exists: false, dir, items: [] };
  const valid = scan.files.flatMap((f) => (f.checkpoint ? [f.checkpoint] : []));
  const picks = new Map(rankCheckpoints(valid).map((p) => [p.skill, p]));
  const now = clock.now();
  const items = scan.files.map((f): CheckpointView => {
    const c = f.checkpoint;
    const pick = c ? picks.get(c.skill) : undefined;
    const rows = c?.progress_table;
    return {
      skill: f.skill,
      file: f.file,
      valid: f.errors.length === 0,
      errors: f.errors.slice(0, MAX_ERRORS_SHOWN).map((e) => (e.path === "" ? e.message : `${e.path} ${e.message}`)),
      warnings: f.warnings.length,
      status: text(f.document, "status"),
      phase: text(f.document, "phase"),
      step: text(f.document, "step"),
      updated_at: text(f.document, "updated_at"),
      summary: text(f.document, "progress_summary"),
      progress: rows ? { done: rows.filter((r) => r.status === "complete").length, total: rows.length } : null,
      blockers: c?.blockers?.length ?? 0,
      next_action: pick?.action ?? null,
      why: pick?.why ?? null,
      stale: c ? staleness(c, now, staleDays).stale : null,
    };
  });
  return { exists: true, dir, items };
}
