// The small records a search reads whole each time (no index: they are few and bounded): checkpoints,
// memory sections, the doctor's last report and gate evidence. Each becomes documents (search-match.ts)
// holding only what aop keeps; an unreadable or odd file is passed over, never fatal.
import fs from "node:fs";
import path from "node:path";
import { idProblem } from "../../core/ids.js";
import { READ_LIMITS } from "../../store/read-limits.js";
import { readBytesBounded } from "../../store/read-text-bounded.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { parseMarkdownSections } from "../continuity/index.js";
import { parseEvidenceFileName } from "../evidence/index.js";
import type { SearchDoc } from "./search-match.js";

/** How many files of one kind a search reads at most (newest first where names tell the age). */
const MAX_FILES = 500;

function list(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

function readJson(file: string, max: number): { value: unknown; mtime: string } | null {
  const read = readBytesBounded(file, max);
  if (read.status !== "ok") return null;
  try {
    return { value: JSON.parse(read.bytes.toString("utf8")) as unknown, mtime: new Date(read.mtimeMs).toISOString() };
  } catch {
    return null;
  }
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.flatMap((x) => (typeof x === "string" ? [x] : x !== null && typeof x === "object" && typeof (x as { text?: unknown }).text === "string" ? [(x as { text: string }).text] : [])) : []);
const isoOrNull = (v: unknown): string | null => (typeof v === "string" && !Number.isNaN(Date.parse(v)) ? new Date(Date.parse(v)).toISOString() : null);

/** Relative to the folder the search runs in (`base`), with `/`: how a command names the file. */
function rel(base: string, file: string): string {
  return path.relative(base, file).split(path.sep).join("/");
}

export function quoteArg(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Each skill's checkpoint: status, phase, step, summary, next actions, blockers, decisions, what was done. */
export function checkpointDocs(layout: WorkspaceLayout): SearchDoc[] {
  const out: SearchDoc[] = [];
  for (const name of list(layout.checkpointsDir).filter((n) => n.endsWith(".checkpoint.json")).sort().slice(0, MAX_FILES)) {
    const skill = name.slice(0, -".checkpoint.json".length);
    if (idProblem(skill) !== null) continue;
    const read = readJson(layout.checkpointFile(skill), READ_LIMITS.checkpoint);
    if (!read || read.value === null || typeof read.value !== "object") continue;
    const c = read.value as Record<string, unknown>;
    const primer = (c.context_primer ?? {}) as Record<string, unknown>;
    const blockers = Array.isArray(c.blockers) ? c.blockers.flatMap((b) => (b && typeof b === "object" ? [str((b as Record<string, unknown>).description), str((b as Record<string, unknown>).proposed_resolution)] : [])) : [];
    const done = Array.isArray(c.recently_done) ? strs(c.recently_done.map((d) => (d && typeof d === "object" ? (d as { action?: unknown }).action : null))) : [];
    const fields = [str(c.progress_summary), ...strs(c.next_actions), ...strs(primer.key_decisions), ...blockers, ...done, skill, str(c.phase), str(c.step), str(c.status)].filter((f): f is string => f !== null);
    out.push({
      kind: "checkpoint",
      ts: isoOrNull(c.updated_at) ?? read.mtime,
      key: `checkpoint:${skill}`,
      title: `checkpoint ${skill}${typeof c.status === "string" ? ` (${c.status})` : ""}`,
      fields,
      skill,
      open: `aop checkpoint show ${quoteArg(skill)}`,
    });
  }
  return out;
}

/** `YYYY-MM-DD_HH-MM.md` → its time, else null. */
function archiveTime(name: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})_(\d{2})-(\d{2})/.exec(name);
  return m ? isoOrNull(`${m[1]}T${m[2]}:${m[3]}:00Z`) : null;
}

function sectionDocs(base: string, file: string, ts: string | null, text: string): SearchDoc[] {
  const where = rel(base, file);
  const sections = parseMarkdownSections(text);
  return sections.map((s, i) => {
    // A section's own text: up to the next heading of any level (a nested one is a hit of its own).
    const next = sections[i + 1];
    const own = next ? s.body.split("\n").slice(0, Math.max(0, next.line - s.line - 1)).join("\n") : s.body;
    return {
      kind: "memory" as const,
      ts,
      key: `memory:${where}:${String(s.line).padStart(8, "0")}`,
      title: `${where} § ${s.title}`,
      fields: [s.title, own],
      open: `less +${s.line} ${quoteArg(where)}`,
    };
  });
}

/** Sections of memory/CURRENT_STATE.md and of the session archives (each read up to the memory bound). */
export function memoryDocs(layout: WorkspaceLayout, base: string): SearchDoc[] {
  const out: SearchDoc[] = [];
  const files: { file: string; ts: string | null }[] = [];
  files.push({ file: layout.currentStateFile, ts: null });
  const archives = list(layout.sessionArchiveDir).filter((n) => n.endsWith(".md") && !n.startsWith(".") && !n.includes("/")).sort().reverse().slice(0, MAX_FILES);
  for (const name of archives) files.push({ file: path.join(layout.sessionArchiveDir, name), ts: archiveTime(name) });
  for (const { file, ts } of files) {
    const read = readBytesBounded(file, READ_LIMITS.memoryState, { truncate: true });
    if (read.status !== "ok") continue;
    out.push(...sectionDocs(base, file, ts ?? new Date(read.mtimeMs).toISOString(), read.bytes.toString("utf8")));
  }
  return out;
}

/** The findings of the doctor's last report (its id, message and refs), dated by the report. */
export function findingDocs(layout: WorkspaceLayout, base: string): SearchDoc[] {
  const read = readJson(layout.doctorLastReport, READ_LIMITS.doctorReport);
  if (!read || read.value === null || typeof read.value !== "object") return [];
  const report = read.value as { generated_at?: unknown; findings?: unknown };
  if (!Array.isArray(report.findings)) return [];
  const ts = isoOrNull(report.generated_at) ?? read.mtime;
  return report.findings.flatMap((f, i) => {
    if (f === null || typeof f !== "object") return [];
    const finding = f as Record<string, unknown>;
    const id = str(finding.id) ?? "finding";
    const refs = Array.isArray(finding.refs) ? finding.refs.filter((r): r is string => typeof r === "string") : [];
    const fields = [str(finding.message), id, str(finding.severity), str(finding.remediation), ...refs].filter((x): x is string => x !== null);
    return [{ kind: "finding" as const, ts, key: `finding:${String(i).padStart(6, "0")}`, title: `${id}${typeof finding.severity === "string" ? ` (${finding.severity})` : ""}`, fields, tool_name: "doctor.run", result: "error" as const, open: `less ${quoteArg(rel(base, layout.doctorLastReport))}` }];
  });
}

/** Every gate run of every feature: mode, profile, overall result, each step's name and outcome. */
export function gateDocs(layout: WorkspaceLayout, base: string): SearchDoc[] {
  const out: SearchDoc[] = [];
  for (const feature of list(layout.featuresDir).sort()) {
    if (idProblem(feature) !== null) continue;
    const names = list(layout.evidenceDir(feature))
      .flatMap((n) => {
        const parsed = parseEvidenceFileName(n);
        return parsed?.kind === "gate" ? [{ name: n, mode: parsed.mode, epochMs: parsed.epochMs }] : [];
      })
      .sort((a, b) => b.epochMs - a.epochMs)
      .slice(0, MAX_FILES);
    for (const g of names) {
      const file = layout.gateEvidence(feature, g.mode, g.epochMs);
      const read = readJson(file, READ_LIMITS.evidence);
      if (!read || read.value === null || typeof read.value !== "object") continue;
      const e = read.value as Record<string, unknown>;
      const overall = e.overall === "pass" || e.overall === "fail" ? e.overall : null;
      const steps = Array.isArray(e.step_results) ? e.step_results : [];
      const stepWords = steps.flatMap((s) => {
        if (s === null || typeof s !== "object") return [];
        const step = s as Record<string, unknown>;
        const outcome = step.skipped === true ? "skipped" : step.exit_code === 0 && step.timed_out !== true ? "pass" : "fail";
        return [`${str(step.name) ?? "step"} ${outcome}${step.timed_out === true ? " timed out" : ""}${typeof step.skip_reason === "string" ? ` ${step.skip_reason}` : ""}`];
      });
      out.push({
        kind: "gate",
        ts: isoOrNull(e.finished_at) ?? new Date(g.epochMs).toISOString(),
        key: `gate:${feature}:${g.name}`,
        title: `gate ${g.mode} ${overall ?? "?"} — ${feature}`,
        fields: [`gate ${g.mode} ${overall ?? ""}`, ...stepWords, feature, str(e.profile) ?? ""].filter((f) => f !== ""),
        tool_name: "gates.run",
        feature_id: feature,
        result: overall === "pass" ? "ok" : overall === "fail" ? "error" : null,
        open: `less ${quoteArg(rel(base, file))}`,
      });
    }
  }
  return out;
}

/** A run, found by its id: dated by its last entry, an error result when any of its calls failed. */
export function runDoc(run: { run_id: string; entries: number; errors: number; last_entry_at: string | null }): SearchDoc {
  return {
    kind: "run",
    ts: run.last_entry_at,
    key: `run:${run.run_id}`,
    title: `run ${run.run_id} (${run.entries} entries, ${run.errors} errors)`,
    fields: [run.run_id],
    result: run.errors > 0 ? "error" : "ok",
    run_id: run.run_id,
    open: `aop replay --run-id ${quoteArg(run.run_id)}`,
  };
}
