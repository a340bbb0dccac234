// Human renderings of `aop export otlp`: one line per run exported, the dry run's span tree. Pure.
import type { RunExport, SkippedRun, SpanRecord } from "../../../domains/export/index.js";
import { escapeInline } from "./escape.js";
import { formatDuration } from "../../../core/time-format.js";
import type { Style } from "./style.js";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function parts(r: RunExport): string {
  const seq = r.entries > 0 ? ` seq ${r.from_sequence}–${r.next_sequence - 1}` : "";
  const bits = [`${r.entries === 1 ? "1 entry" : `${r.entries} entries`}${seq}`];
  if (r.markers > 0) bits.push(`${plural(r.markers, "marker")} among them`);
  if (r.gate_steps > 0) bits.push(plural(r.gate_steps, "gate step"));
  if (r.enclosing_spans > 0) bits.push(`${r.enclosing_spans} root/agent`);
  return bits.join(", ");
}

export type ExportMode = "send" | "file" | "dry-run";

/** One line for a run: what was sent (or would be), or that the target already has everything. */
export function renderRunLine(r: RunExport, s: Style, mode: ExportMode): string {
  const head = `${r.run_id}  ${s.dim(`trace ${r.trace_id}`)}`;
  if (r.spans === 0) return `${head}  ${s.dim(`up to date (next sequence ${r.next_sequence})`)}`;
  const verb = mode === "dry-run" ? "would send" : mode === "file" ? "wrote" : "sent";
  const requests = mode === "file" ? plural(r.requests, "line") : plural(r.requests, "request");
  const notes: string[] = [];
  if (r.attempts > r.requests) notes.push(s.yellow(`${r.attempts - r.requests} retried`));
  if (r.unplaced_entries > 0) notes.push(s.yellow(`${r.unplaced_entries} entries without a valid ts left out`));
  if (r.evidence_modified > 0) notes.push(s.yellow(`${r.evidence_modified === 1 ? "1 gate's evidence" : `${r.evidence_modified} gates' evidence`} modified since chained: verdict from the timeline, no steps`));
  if (r.rejected_spans > 0) notes.push(s.red(`receiver rejected ${r.rejected_spans}${r.reject_message ? `: ${escapeInline(r.reject_message)}` : ""}`));
  return `${head}  ${verb} ${plural(r.spans, "span")} (${parts(r)}) in ${requests}${notes.length ? ` · ${notes.join(" · ")}` : ""}`;
}

export function renderSummary(results: readonly RunExport[], s: Style, dryRun: boolean, skipped = 0): string {
  const spans = results.reduce((n, r) => n + r.spans, 0);
  const sent = results.filter((r) => r.spans > 0).length;
  const verb = dryRun ? "would export" : "exported";
  const line = s.dim(`${verb} ${plural(spans, "span")} from ${sent} of ${plural(results.length, "run")}${dryRun ? " (dry run: nothing sent, cursors unchanged)" : ""}`);
  return skipped > 0 ? `${line}${s.dim(" · ")}${s.yellow(`${plural(skipped, "run")} skipped: timeline not readable`)}` : line;
}

/** A run left out because its timeline cannot be read. */
export function renderSkippedLine(run: SkippedRun, s: Style): string {
  return `${run.run_id}  ${s.yellow(`skipped: ${escapeInline(run.problem)}`)}`;
}

const MAX_TREE_LINES = 40;

/** The spans of a dry run as an indented tree (parents before children), at most MAX_TREE_LINES lines. */
export function renderSpanTree(spans: readonly SpanRecord[], s: Style): string {
  const children = new Map<string | null, SpanRecord[]>();
  const ids = new Set(spans.map((sp) => sp.spanId));
  for (const span of spans) {
    const parent = span.parentSpanId !== null && ids.has(span.parentSpanId) ? span.parentSpanId : null;
    const list = children.get(parent) ?? [];
    list.push(span);
    children.set(parent, list);
  }
  const lines: string[] = [];
  let omitted = 0;
  const walk = (parent: string | null, depth: number) => {
    const list = (children.get(parent) ?? []).slice().sort((a, b) => a.startMs - b.startMs);
    for (const span of list) {
      if (lines.length >= MAX_TREE_LINES) omitted += 1;
      else {
        const status = span.error === null ? "" : `  ${s.red(`ERROR ${escapeInline(span.error)}`)}`;
        const orphan = depth === 0 && span.parentSpanId !== null ? s.dim(` (parent ${span.parentSpanId} sent earlier)`) : "";
        lines.push(`${"  ".repeat(depth + 1)}${escapeInline(span.name)}  ${s.dim(`${span.spanId} ${formatDuration(span.endMs - span.startMs)}`)}${status}${orphan}`);
      }
      walk(span.spanId, depth + 1);
    }
  };
  walk(null, 0);
  if (omitted > 0) lines.push(s.dim(`  … ${omitted} more span${omitted === 1 ? "" : "s"}`));
  return lines.join("\n");
}
