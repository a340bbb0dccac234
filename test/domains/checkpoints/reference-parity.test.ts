// `checkpoint validate` against the Checkpoint Protocol's reference CLI (scripts/checkpoint.mjs of the
// public repository asfbay-bit/opchain, release 1.8.2). One fixture per rule of the reference's
// validator and per edge of each rule; the `reference` column is the verdict that CLI gives the
// fixture (error: fails validate; warning: fails only --strict; valid), written from reading it and from
// running it. Hints never count: they are advice the reference does not give. Where aop deliberately
// differs, the row says so and why (docs/checkpoints.md, "Agreement with the reference CLI").
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { CompiledValidator } from "../../../src/catalog/load-validator.js";
import { loadCheckpointSchema, validateCheckpointText } from "../../../src/domains/checkpoints/validate-checkpoint.js";
import { REPO_ROOT } from "../../helpers/paths.js";
import { tempDir } from "../../helpers/tmp.js";
import { REFERENCE_T0 as T0, referenceCheckpoint } from "./fixture.js";

type Verdict = "error" | "warning" | "valid";
const NOW = Date.parse("2026-12-01T10:00:00.000Z");
const HOUR = 3_600_000;

const cp = (overrides: Record<string, unknown> = {}) => referenceCheckpoint("a", overrides);
const iso = (ms: number) => new Date(ms).toISOString();

interface Row {
  /** The reference's rule (numbering of the research notes' table), or the edge probed. */
  rule: string;
  name: string;
  doc: unknown;
  reference: Verdict;
  /** aop's verdict when it deliberately differs, and why. */
  deviation?: { aop: Verdict; why: string };
  file?: string;
  sizeBytes?: number;
}

const IMPOSSIBLE_DATES = "impossible dates are rejected everywhere (the reference checks only the pattern)";
const FALSY = "a field the protocol requires must hold a real value: the reference tests truthiness, so false and 0 slip past its checks";

const ROWS: Row[] = [
  { rule: "version", name: "valid 1.1", doc: cp(), reference: "valid" },
  { rule: "version", name: "valid 1.0", doc: cp({ protocol_version: "1.0" }), reference: "valid" },
  { rule: "#2", name: "version 1.2", doc: cp({ protocol_version: "1.2" }), reference: "error" },
  { rule: "#2", name: "version as the number 1.1", doc: cp({ protocol_version: 1.1 }), reference: "error" },
  { rule: "#2", name: "version 0", doc: cp({ protocol_version: 0 }), reference: "valid", deviation: { aop: "error", why: FALSY } },
  { rule: "#2", name: "version false", doc: cp({ protocol_version: false }), reference: "valid", deviation: { aop: "error", why: FALSY } },
  { rule: "#1", name: "missing progress_summary", doc: cp({ progress_summary: undefined }), reference: "error" },
  { rule: "#1", name: "empty phase", doc: cp({ phase: "" }), reference: "error" },
  { rule: "#1", name: "whitespace phase", doc: cp({ phase: "   " }), reference: "valid" },
  { rule: "#1", name: "null step", doc: cp({ step: null }), reference: "error" },
  { rule: "#1", name: "numeric phase", doc: cp({ phase: 5 }), reference: "valid" },
  { rule: "#1", name: "missing skill", doc: cp({ skill: undefined }), reference: "error" },
  { rule: "#3", name: "status done", doc: cp({ status: "done" }), reference: "error" },
  { rule: "#3", name: "status false", doc: cp({ status: false }), reference: "valid", deviation: { aop: "error", why: FALSY } },
  { rule: "#3", name: "no status", doc: cp({ status: undefined }), reference: "error" },
  { rule: "#4", name: "timestamp with an offset", doc: cp({ created_at: "2026-06-01T12:00:00+00:00" }), reference: "error" },
  { rule: "#4", name: "timestamp without seconds", doc: cp({ created_at: "2026-06-01T12:00Z" }), reference: "error" },
  { rule: "#4", name: "milliseconds", doc: cp({ created_at: "2026-06-01T12:00:00.123Z", updated_at: "2026-06-01T12:00:00.124Z" }), reference: "valid" },
  { rule: "#4", name: "microseconds, compared at millisecond precision", doc: cp({ created_at: "2026-06-01T12:00:00.123456Z" }), reference: "error" },
  { rule: "#4", name: "nine fraction digits equal to the second", doc: cp({ created_at: "2026-06-01T12:00:00.000000000Z" }), reference: "valid" },
  { rule: "#4", name: "lowercase z", doc: cp({ created_at: "2026-06-01T12:00:00z" }), reference: "error" },
  { rule: "#4", name: "date only", doc: cp({ created_at: "2026-06-01" }), reference: "error" },
  { rule: "#4", name: "February 30th", doc: cp({ created_at: "2026-02-30T00:00:00Z" }), reference: "valid", deviation: { aop: "error", why: IMPOSSIBLE_DATES } },
  { rule: "#4", name: "month 13", doc: cp({ created_at: "2026-13-01T00:00:00Z" }), reference: "valid", deviation: { aop: "error", why: IMPOSSIBLE_DATES } },
  { rule: "#4", name: "hour 25", doc: cp({ created_at: "2026-06-01T25:00:00Z" }), reference: "valid", deviation: { aop: "error", why: IMPOSSIBLE_DATES } },
  { rule: "#4", name: "a timestamp that is a number", doc: cp({ created_at: 1780000000000 }), reference: "error" },
  { rule: "#4", name: "a timestamp of 0", doc: cp({ created_at: 0 }), reference: "valid", deviation: { aop: "error", why: FALSY } },
  { rule: "#5", name: "updated before created", doc: cp({ created_at: "2026-06-02T12:00:00Z", updated_at: "2026-06-01T12:00:00Z" }), reference: "error" },
  { rule: "#5", name: "updated before an impossible created (Feb 30th read as March 2nd)", doc: cp({ created_at: "2026-02-30T00:00:00Z", updated_at: "2026-03-01T00:00:00Z" }), reference: "error" },
  { rule: "#5", name: "updated equal to created", doc: cp({ updated_at: T0 }), reference: "valid" },
  { rule: "#6", name: "updated_at 2 days ahead", doc: cp({ created_at: iso(NOW - HOUR), updated_at: iso(NOW + 48 * HOUR) }), reference: "warning" },
  { rule: "#6", name: "updated_at 1 hour ahead", doc: cp({ created_at: iso(NOW - HOUR), updated_at: iso(NOW + HOUR) }), reference: "valid" },
  { rule: "#6", name: "updated_at 23 hours ahead", doc: cp({ created_at: iso(NOW - HOUR), updated_at: iso(NOW + 23 * HOUR) }), reference: "valid" },
  { rule: "#7", name: "file name does not match skill", doc: cp({ skill: "other" }), reference: "error" },
  { rule: "#7", name: "skill 5 in a.checkpoint.json", doc: cp({ skill: 5 }), reference: "error" },
  { rule: "#7", name: "skill 5 in 5.checkpoint.json", doc: cp({ skill: 5 }), file: "5.checkpoint.json", reference: "valid" },
  { rule: "#8a", name: "progress_table that is an object", doc: cp({ progress_table: { id: "x" } }), reference: "warning" },
  { rule: "#8a", name: "a row that is a string", doc: cp({ progress_table: ["x"] }), reference: "error" },
  { rule: "#8b", name: "a row without a label", doc: cp({ progress_table: [{ id: "r1", status: "complete" }] }), reference: "error" },
  { rule: "#8b", name: "a row with id 0", doc: cp({ progress_table: [{ id: 0, label: "x", status: "complete" }] }), reference: "error" },
  { rule: "#8c", name: "a row with status done", doc: cp({ progress_table: [{ id: "r1", label: "R", status: "done" }] }), reference: "error" },
  { rule: "#8d", name: "no table while in progress", doc: cp({ progress_table: undefined }), reference: "warning" },
  { rule: "#8d", name: "an empty table while in progress", doc: cp({ progress_table: [] }), reference: "valid" },
  { rule: "#8d", name: "no table, complete", doc: cp({ status: "complete", progress_table: undefined }), reference: "valid" },
  { rule: "#10", name: "no context_primer while in progress", doc: cp({ context_primer: undefined }), reference: "warning" },
  { rule: "#10", name: "context_primer null while in progress", doc: cp({ context_primer: null }), reference: "valid" },
  { rule: "#10", name: "context_primer of the wrong shape", doc: cp({ context_primer: { key_decisions: "x" } }), reference: "valid" },
  { rule: "#9a", name: "empty next_actions while in progress", doc: cp({ next_actions: [] }), reference: "error" },
  { rule: "#9a", name: "no next_actions while in progress", doc: cp({ next_actions: undefined }), reference: "error" },
  { rule: "#9a", name: "empty next_actions while blocked", doc: cp({ status: "blocked", next_actions: [] }), reference: "valid" },
  { rule: "#9b", name: "next_actions that is a string", doc: cp({ next_actions: "do it" }), reference: "error" },
  { rule: "#9b", name: "next_actions null while complete", doc: cp({ status: "complete", next_actions: null }), reference: "error" },
  { rule: "#9d", name: "an action object without text", doc: cp({ next_actions: [{ done_when: "true" }] }), reference: "error" },
  { rule: "#9d", name: "an action that is a number", doc: cp({ next_actions: [7] }), reference: "error" },
  { rule: "#9c", name: "done_when that is a number", doc: cp({ next_actions: [{ text: "t", done_when: 42 }] }), reference: "error" },
  { rule: "#9c", name: "done_when null", doc: cp({ next_actions: [{ text: "t", done_when: null }] }), reference: "error" },
  { rule: "#9c", name: "an action object with extra keys", doc: cp({ next_actions: [{ text: "t", done_when: "true", owner: "me" }] }), reference: "valid" },
  { rule: "#9", name: "an empty string action", doc: cp({ next_actions: [""] }), reference: "valid" },
  { rule: "#11a", name: "blockers that is an object", doc: cp({ blockers: { id: "b" } }), reference: "valid" },
  { rule: "#11a", name: "a blocker that is a string", doc: cp({ blockers: ["b"] }), reference: "error" },
  { rule: "#11b", name: "a blocker without a description", doc: cp({ blockers: [{ id: "b1" }] }), reference: "error" },
  { rule: "#11c", name: "a blocker needing wat", doc: cp({ blockers: [{ id: "b1", description: "d", needs: "wat" }] }), reference: "error" },
  { rule: "#11c", name: "a blocker with needs null", doc: cp({ blockers: [{ id: "b1", description: "d", needs: null }] }), reference: "error" },
  { rule: "#11c", name: "a blocker without needs", doc: cp({ blockers: [{ id: "b1", description: "d" }] }), reference: "valid" },
  { rule: "#11d", name: "a blocker blocking no table row", doc: cp({ blockers: [{ id: "b1", description: "d", blocking: "nope" }] }), reference: "warning" },
  { rule: "#11d", name: "a blocker blocking a list holding a row id", doc: cp({ blockers: [{ id: "b1", description: "d", blocking: ["sprint-1"] }] }), reference: "warning" },
  { rule: "#11d", name: "a blocker blocking the table's row", doc: cp({ blockers: [{ id: "b1", description: "d", blocking: "sprint-1" }] }), reference: "valid" },
  { rule: "#11d", name: "a dangling blocking without a table (only the no-table warning)", doc: cp({ progress_table: undefined, blockers: [{ id: "b1", description: "d", blocking: "nope" }] }), reference: "warning" },
  { rule: "#11d", name: "a dangling blocking, complete, empty table", doc: cp({ status: "complete", progress_table: [], blockers: [{ id: "b1", description: "d", blocking: "nope" }] }), reference: "valid" },
  { rule: "#12a", name: "pm_refs that is an object", doc: cp({ pm_refs: {} }), reference: "error" },
  { rule: "#12a", name: "pm_refs null", doc: cp({ pm_refs: null }), reference: "error" },
  { rule: "#12b", name: "a pm_ref that is a string", doc: cp({ pm_refs: ["x"] }), reference: "error" },
  { rule: "#12c", name: "a pm_ref without a provider", doc: cp({ pm_refs: [{ id: "ABC-1" }] }), reference: "error" },
  { rule: "#12d", name: "a pm_ref with role owner", doc: cp({ pm_refs: [{ provider: "linear", id: "ABC-1", role: "owner" }] }), reference: "error" },
  { rule: "#12d", name: "a pm_ref with every field, url and first_seen_at unchecked", doc: cp({ pm_refs: [{ provider: "linear", id: "ABC-1", url: "x", role: "source", created_by_skill: "a", first_seen_at: "whenever" }] }), reference: "valid" },
  { rule: "#13a", name: "cost that is a list", doc: cp({ cost: [1] }), reference: "error" },
  { rule: "#13a", name: "cost null", doc: cp({ cost: null }), reference: "error" },
  { rule: "#13b", name: "a negative total", doc: cp({ cost: { total_usd: -1 } }), reference: "error" },
  { rule: "#13b", name: "a budget as text", doc: cp({ cost: { budget_usd: "50" } }), reference: "error" },
  { rule: "#13d", name: "a phase cost as text", doc: cp({ cost: { by_phase: { spec: "lots" } } }), reference: "error" },
  { rule: "#13c", name: "costs by model as a list", doc: cp({ cost: { by_model: [1] } }), reference: "error" },
  { rule: "#13d", name: "a negative model cost", doc: cp({ cost: { by_model: { m: -0.5 } } }), reference: "error" },
  { rule: "#13e", name: "over budget", doc: cp({ cost: { total_usd: 80, budget_usd: 50 } }), reference: "warning" },
  { rule: "#13e", name: "spend equal to the budget", doc: cp({ cost: { total_usd: 50, budget_usd: 50 } }), reference: "valid" },
  { rule: "#13e", name: "a budget of 0", doc: cp({ cost: { total_usd: 5, budget_usd: 0 } }), reference: "valid" },
  { rule: "#13f", name: "other cost keys are not checked", doc: cp({ cost: { currency: "EUR", tokens: { input: "many" }, updated_at: "nonsense" } }), reference: "valid" },
  { rule: "#14a", name: "eval_scores that is an object", doc: cp({ eval_scores: { rubric: "r", score: 1 } }), reference: "error" },
  { rule: "#14b", name: "an eval score that is a string", doc: cp({ eval_scores: ["x"] }), reference: "error" },
  { rule: "#14c", name: "no rubric", doc: cp({ eval_scores: [{ score: 8 }] }), reference: "error" },
  { rule: "#14c", name: "an empty rubric", doc: cp({ eval_scores: [{ rubric: "", score: 8 }] }), reference: "error" },
  { rule: "#14d", name: "no score", doc: cp({ eval_scores: [{ rubric: "r" }] }), reference: "error" },
  { rule: "#14d", name: "a score as text", doc: cp({ eval_scores: [{ rubric: "r", score: "high" }] }), reference: "error" },
  { rule: "#14f", name: "a score over its max", doc: cp({ eval_scores: [{ rubric: "r", score: 11, max: 10 }] }), reference: "error" },
  { rule: "#14d", name: "11 without a max", doc: cp({ eval_scores: [{ rubric: "r", score: 11 }] }), reference: "valid" },
  { rule: "#14d", name: "a negative score", doc: cp({ eval_scores: [{ rubric: "r", score: -3 }] }), reference: "valid" },
  { rule: "#14e", name: "max 0", doc: cp({ eval_scores: [{ rubric: "r", score: 0, max: 0 }] }), reference: "error" },
  { rule: "#14g", name: "an eval date only", doc: cp({ eval_scores: [{ rubric: "r", score: 1, at: "2026-06-01" }] }), reference: "error" },
  { rule: "#14g", name: "an impossible eval date", doc: cp({ eval_scores: [{ rubric: "r", score: 1, at: "2026-02-30T00:00:00Z" }] }), reference: "valid", deviation: { aop: "error", why: IMPOSSIBLE_DATES } },
  { rule: "#14h", name: "a dimension as text", doc: cp({ eval_scores: [{ rubric: "r", score: 1, dimensions: { ux: "good" } }] }), reference: "error" },
  { rule: "#14", name: "other eval keys are not checked", doc: cp({ eval_scores: [{ rubric: "r", score: 1, notes: 3 }] }), reference: "valid" },
  { rule: "#15a", name: "an empty telemetry handle", doc: cp({ telemetry_handle: "" }), reference: "error" },
  { rule: "#15a", name: "a blank telemetry handle", doc: cp({ telemetry_handle: "  " }), reference: "error" },
  { rule: "#15c", name: "a numeric telemetry handle", doc: cp({ telemetry_handle: 42 }), reference: "error" },
  { rule: "#15c", name: "a telemetry handle that is a list", doc: cp({ telemetry_handle: [] }), reference: "error" },
  { rule: "#15c", name: "a telemetry handle true", doc: cp({ telemetry_handle: true }), reference: "error" },
  { rule: "#15a", name: "a null telemetry handle", doc: cp({ telemetry_handle: null }), reference: "valid" },
  { rule: "#15b", name: "telemetry enabled as text", doc: cp({ telemetry_handle: { enabled: "yes" } }), reference: "error" },
  { rule: "#15b", name: "telemetry id as a number", doc: cp({ telemetry_handle: { id: 1 } }), reference: "error" },
  { rule: "#15b", name: "telemetry since yesterday", doc: cp({ telemetry_handle: { enabled: true, since: "yesterday" } }), reference: "error" },
  { rule: "#15b", name: "an empty telemetry object", doc: cp({ telemetry_handle: {} }), reference: "valid" },
  { rule: "#15a", name: "a telemetry handle string", doc: cp({ telemetry_handle: "tele-7f3a" }), reference: "valid" },
  { rule: "#17", name: "a summary of 1200 characters", doc: cp({ progress_summary: "s".repeat(1200) }), reference: "valid" },
  { rule: "#17", name: "a summary of 1201 characters", doc: cp({ progress_summary: "s".repeat(1201) }), reference: "warning" },
  { rule: "#17", name: "1199 characters and an emoji (1201 UTF-16 units)", doc: cp({ progress_summary: "s".repeat(1199) + "😀" }), reference: "warning" },
  { rule: "#16", name: "a 33 KB file", doc: cp({ skill_state: { blob: "x".repeat(33 * 1024) } }), reference: "warning" },
  { rule: "#16", name: "exactly 32 KB", doc: cp(), sizeBytes: 32 * 1024, reference: "valid" },
  { rule: "-", name: "skill_state of any type", doc: cp({ skill_state: "a string is fine" }), reference: "valid" },
  { rule: "-", name: "unknown top-level keys, recently_done not a list", doc: cp({ extra: 1, recently_done: "not validated" }), reference: "valid" },
  { rule: "-", name: "a top-level array", doc: [], reference: "error" },
  { rule: "-", name: "a top-level string", doc: "x", reference: "error" },
  { rule: "-", name: "top-level null (the reference crashes: exit 1)", doc: null, reference: "error" },
  { rule: "-", name: "invalid JSON", doc: '{"skill": "a",', reference: "error" },
];

function textOf(row: Row): string {
  return typeof row.doc === "string" && row.name === "invalid JSON" ? row.doc : JSON.stringify(row.doc, null, 2) + "\n";
}

function verdictOf(row: Row, schema: CompiledValidator): { verdict: Verdict; problems: unknown } {
  const text = textOf(row);
  const r = validateCheckpointText(schema, { fileName: row.file ?? "a.checkpoint.json", text, sizeBytes: row.sizeBytes ?? Buffer.byteLength(text), now: NOW });
  return { verdict: r.errors.length > 0 ? "error" : r.warnings.length > 0 ? "warning" : "valid", problems: { errors: r.errors, warnings: r.warnings } };
}

describe("checkpoint validate agrees with the reference CLI on what is an error and what is a warning", () => {
  let schema: CompiledValidator;
  beforeAll(async () => {
    schema = await loadCheckpointSchema();
  });

  it.each(ROWS.map((row) => [`${row.rule} ${row.name}`, row] as const))("%s", (_title, row) => {
    const { verdict, problems } = verdictOf(row, schema);
    expect(verdict, JSON.stringify(problems)).toBe(row.deviation?.aop ?? row.reference);
  });

  it("the deviations are exactly the documented ones: impossible dates, and falsy values in required fields", () => {
    const deviations = ROWS.filter((r) => r.deviation).map((r) => r.deviation!.why);
    expect(new Set(deviations)).toEqual(new Set([IMPOSSIBLE_DATES, FALSY]));
    expect(ROWS.filter((r) => r.deviation?.why === IMPOSSIBLE_DATES).map((r) => r.name)).toEqual(["February 30th", "month 13", "hour 25", "an impossible eval date"]);
  });
});

// The table's `reference` column checked against the reference CLI itself, when a copy of it is at hand
// (it is not an npm package, and its code is not ours to commit): CHECKPOINT_REFERENCE=/path/to/checkpoint.mjs.
// It finds its project as the parent of the folder holding the script, so each row gets a folder with a copy.
const REFERENCE = process.env.CHECKPOINT_REFERENCE;
const PIN_CLOCK = path.join(REPO_ROOT, "scripts", "parity", "pin-clock.mjs");
describe.skipIf(!REFERENCE)("the reference column is what the reference CLI says (CHECKPOINT_REFERENCE)", () => {
  it.each(ROWS.map((row) => [`${row.rule} ${row.name}`, row] as const))("%s", (_title, row) => {
    const root = tempDir("ckpt-ref-");
    fs.mkdirSync(path.join(root, "scripts"));
    fs.mkdirSync(path.join(root, ".checkpoints"));
    fs.copyFileSync(REFERENCE!, path.join(root, "scripts", "checkpoint.mjs"));
    fs.writeFileSync(path.join(root, ".checkpoints", row.file ?? "a.checkpoint.json"), textOf(row));
    // The reference reads the real clock: pinned to NOW, as aop's column is, so no row depends on today's date.
    const run = (...args: string[]) => spawnSync(process.execPath, ["--import", PIN_CLOCK, path.join(root, "scripts", "checkpoint.mjs"), "validate", ...args], { cwd: root, encoding: "utf8", env: { ...process.env, PARITY_NOW: iso(NOW) } }).status;
    const verdict: Verdict = run() !== 0 ? "error" : run("--strict") !== 0 ? "warning" : "valid";
    expect(verdict).toBe(row.reference);
  });
});
