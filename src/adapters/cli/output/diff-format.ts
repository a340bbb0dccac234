// `aop report --diff`: the calls two runs do not share, as a table (changed, added, missing), and the
// same as JSON. Pure.
import type { RunDiff, TimelineRecord } from "../../../domains/report/index.js";
import type { Style } from "./style.js";
import { renderTable } from "./table.js";
import { escapeInline } from "./escape.js";

type Runs = Map<string, TimelineRecord[]>;

const MARK = { changed: "~", added: "+", missing: "-", same: "=" } as const;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

function result(r: TimelineRecord | undefined): string {
  if (!r) return "";
  return r.result === "error" ? `ERROR ${r.error_code ?? ""}`.trim() : "ok";
}

function show(value: string | boolean | null): string {
  if (value === null) return "null";
  const text = escapeInline(String(value));
  // Hashes differ in their first characters already; the JSON output has them whole.
  return /^sha256:[0-9a-f]{64}$/.test(text) ? `${text.slice(0, 19)}…` : text;
}

export function renderDiff(ids: string[], runs: Runs, diff: RunDiff, s: Style): string {
  const [idA, idB] = [ids[0]!, ids[1]!];
  const a = runs.get(idA) ?? [];
  const b = runs.get(idB) ?? [];
  const lines = [s.bold(`A ${escapeInline(idA)} (${a.length} entries)  →  B ${escapeInline(idB)} (${b.length} entries)`)];
  const rows = diff.rows
    .filter((r) => r.kind !== "same")
    .map((r) => {
      const ea = r.a === null ? undefined : a[r.a];
      const eb = r.b === null ? undefined : b[r.b];
      const either = (eb ?? ea)!;
      const mark = r.kind === "added" ? s.green(MARK.added) : r.kind === "missing" ? s.red(MARK.missing) : s.yellow(MARK.changed);
      const changes = r.changes.map((c) => `${c.field}: ${show(c.a)} → ${show(c.b)}`).join("; ") + (r.by === "operation_id" ? " (same operation id)" : "");
      return [mark, ea ? String(ea.sequence) : "", eb ? String(eb.sequence) : "", escapeInline(either.tool_name), escapeInline(either.feature_id ?? ""), result(ea), result(eb), changes];
    });
  if (rows.length === 0) lines.push("no differences: every call matches");
  else lines.push(renderTable([{ header: "" }, { header: "A", align: "right" }, { header: "B", align: "right" }, { header: "TOOL" }, { header: "FEATURE" }, { header: "A RESULT" }, { header: "B RESULT" }, { header: "CHANGES" }], rows));
  const sum = diff.summary;
  lines.push(s.dim(`${sum.changed} changed · ${sum.added} added (only in B) · ${sum.missing} missing (only in A) · ${sum.same} unchanged${diff.method === "positional" ? " · too different to align: paired by order" : ""}`));
  return lines.join("\n");
}

function brief(r: TimelineRecord | undefined) {
  if (!r) return null;
  return { sequence: r.sequence, tool_name: r.tool_name, feature_id: r.feature_id, operation_id: r.operation_id, result: r.result, error_code: r.error_code, idempotency_status: r.idempotency_status };
}

/** The machine form: both runs, the summary, and every row that is not unchanged (`changes` typed through RunDiff, so the declaration can name it). */
export function diffJson(ids: string[], runs: Runs, diff: RunDiff) {
  const a = runs.get(ids[0]!) ?? [];
  const b = runs.get(ids[1]!) ?? [];
  return {
    a: { run_id: ids[0], entries: a.length },
    b: { run_id: ids[1], entries: b.length },
    method: diff.method,
    summary: diff.summary,
    rows: diff.rows.filter((r) => r.kind !== "same").map((r) => ({ kind: r.kind, by: r.by, a: brief(r.a === null ? undefined : a[r.a]), b: brief(r.b === null ? undefined : b[r.b]), changes: r.changes as RunDiff["rows"][number]["changes"] })),
  };
}
