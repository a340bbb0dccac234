// Persists doctor reports: validated against the shipped schema, written atomically to
// last_report.json and history/<timestamp>.json, history pruned to the newest 20.
import fs from "node:fs";
import { AopError } from "../../core/errors.js";
import { ensureDir, removeFile, writeJsonAtomic } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { withLock } from "../../store/lock.js";
import { validateAgainst } from "../../catalog/load-validator.js";
import { schemaProblems } from "../../catalog/schema-problems.js";
import type { DoctorReport } from "./report.js";

export const HISTORY_KEEP = 20;

function historyStamp(generatedAt: string): string {
  return generatedAt.replace(/[:.]/g, "-");
}

export async function persistReport(layout: WorkspaceLayout, report: DoctorReport): Promise<{ last_report: string; history: string }> {
  const errors = await validateAgainst("doctor_report", report);
  if (errors.length > 0) {
    const first = schemaProblems(errors)[0];
    throw new AopError("internal_error", `doctor report failed its schema (${first?.path} ${first?.message}); nothing written`);
  }
  return withLock(layout.lockFor(layout.doctorLastReport), () => {
    ensureDir(layout.doctorHistoryDir);
    const stamp = historyStamp(report.generated_at);
    let history = layout.doctorHistoryFile(stamp);
    for (let n = 1; fs.existsSync(history); n++) history = layout.doctorHistoryFile(`${stamp}-${n}`);
    writeJsonAtomic(history, report);
    writeJsonAtomic(layout.doctorLastReport, report);
    pruneHistory(layout);
    return { last_report: layout.relative(layout.doctorLastReport), history: layout.relative(history) };
  });
}

function pruneHistory(layout: WorkspaceLayout): void {
  const files = fs.readdirSync(layout.doctorHistoryDir).filter((f) => f.endsWith(".json")).sort();
  for (const old of files.slice(0, Math.max(0, files.length - HISTORY_KEEP))) removeFile(layout.doctorHistoryFile(old.slice(0, -".json".length)));
}
