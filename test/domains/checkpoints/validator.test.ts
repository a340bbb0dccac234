import { beforeAll, describe, expect, it } from "vitest";
import type { CompiledValidator } from "../../../src/catalog/load-validator.js";
import { loadCheckpointSchema, validateCheckpointText, type ValidationOutcome } from "../../../src/domains/checkpoints/validate-checkpoint.js";
import { exampleCheckpoint, exampleText, minimalCheckpoint } from "./fixture.js";

const NOW = Date.parse("2026-03-01T12:00:00.000Z");
let schema: CompiledValidator;
beforeAll(async () => {
  schema = await loadCheckpointSchema();
});

function check(doc: unknown, fileName = "builder.checkpoint.json", now = NOW): ValidationOutcome {
  const text = typeof doc === "string" ? doc : JSON.stringify(doc, null, 2);
  return validateCheckpointText(schema, { fileName, text, sizeBytes: Buffer.byteLength(text), now });
}

function paths(problems: { path: string }[]): string[] {
  return problems.map((p) => p.path);
}

describe("the protocol's full example", () => {
  it("is valid with no warnings", () => {
    const result = check(exampleText(), "architect.checkpoint.json");
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.checkpoint?.skill).toBe("architect");
  });
});

const REQUIRED = ["protocol_version", "skill", "project", "project_dir", "created_at", "updated_at", "phase", "step", "status", "progress_summary"];

describe("errors: one fixture per rule", () => {
  it.each(REQUIRED)("missing required field %s", (field) => {
    const result = check(minimalCheckpoint("builder", { [field]: undefined }));
    expect(result.errors).toContainEqual({ path: field, message: "is required" });
    expect(result.checkpoint).toBeNull();
  });

  it.each(REQUIRED)("null or empty required field %s", (field) => {
    expect(check(minimalCheckpoint("builder", { [field]: "" })).errors).toContainEqual({ path: field, message: "must not be empty" });
    expect(check(minimalCheckpoint("builder", { [field]: null })).errors).toContainEqual({ path: field, message: "is required (got null)" });
  });

  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["an unknown protocol_version", { protocol_version: "1.2" }, "protocol_version", /must be 1\.0 or 1\.1 \(got the string '1\.2'\)/],
    ["protocol_version as a number", { protocol_version: 1.1 }, "protocol_version", /must be 1\.0 or 1\.1 \(got number 1\.1\)/],
    ["bad status enum", { status: "done" }, "status", /must be in_progress, blocked, complete or failed \(got the string 'done'\)/],
    ["timestamp with an offset instead of Z", { created_at: "2026-03-01T08:00:00+01:00" }, "created_at", /ISO 8601 UTC timestamp ending in Z/],
    ["timestamp with a space", { updated_at: "2026-03-01 09:00:00Z" }, "updated_at", /ISO 8601 UTC timestamp ending in Z/],
    ["timestamp without seconds", { created_at: "2026-03-01T08:00Z" }, "created_at", /ISO 8601 UTC timestamp ending in Z/],
    ["date without a time", { created_at: "2026-03-01" }, "created_at", /ISO 8601 UTC timestamp ending in Z/],
    ["a timestamp that is a number", { created_at: 1780000000000 }, "created_at", /must be a string \(got number 1780000000000\)/],
    ["a date that does not exist", { created_at: "2026-02-30T08:00:00.000Z", updated_at: "2026-03-01T09:00:00.000Z" }, "created_at", /is not a real date and time/],
    ["hour 24", { updated_at: "2026-03-01T24:00:00Z" }, "updated_at", /is not a real date and time/],
    ["updated_at before created_at", { created_at: "2026-03-01T10:00:00.000Z", updated_at: "2026-03-01T09:00:00.000Z" }, "updated_at", /is before created_at .*must be at or after created_at/],
    ["progress_table row without a label", { progress_table: [{ id: "a", status: "complete" }] }, "progress_table[0].label", /is required/],
    ["progress_table row with a label of 0", { progress_table: [{ id: "a", label: 0, status: "complete" }] }, "progress_table[0].label", /is required \(got 0\)/],
    ["progress_table row with a bad status", { progress_table: [{ id: "a", label: "A", status: "finished" }] }, "progress_table[0].status", /must be complete, in_progress, not_started, blocked or failed/],
    ["progress_table row that is a string", { progress_table: ["a"] }, "progress_table[0]", /must be an object \(got the string 'a'\)/],
    ["next action that is a number", { next_actions: [42] }, "next_actions[0]", /must be a non-empty string or an object \{text, done_when\?\} \(got number 42\)/],
    ["next action object without text", { next_actions: [{ done_when: "npm test" }] }, "next_actions[0].text", /is required/],
    ["next action with a done_when that is not text", { next_actions: [{ text: "Test", done_when: null }] }, "next_actions[0].done_when", /must be a string \(got null\)/],
    ["next_actions that is not a list", { status: "blocked", next_actions: "do it" }, "next_actions", /must be an array/],
    ["next_actions missing while in progress", { next_actions: undefined }, "next_actions", /is required while status is in_progress/],
    ["next_actions empty while in progress", { next_actions: [] }, "next_actions", /must hold at least one action while status is in_progress/],
    ["blocker without a description", { blockers: [{ id: "b1" }] }, "blockers[0].description", /is required/],
    ["blocker with a bad needs", { blockers: [{ id: "b1", description: "Waiting", needs: "someone" }] }, "blockers[0].needs", /must be user_decision, code_fix or external_dep/],
    ["blocker with needs null", { blockers: [{ id: "b1", description: "Waiting", needs: null }] }, "blockers[0].needs", /must be user_decision, code_fix or external_dep \(got null\)/],
    ["pm_refs that is not a list", { pm_refs: null }, "pm_refs", /must be an array \(got null\)/],
    ["pm_ref without provider", { pm_refs: [{ id: "SHOP-1", role: "source" }] }, "pm_refs[0].provider", /is required/],
    ["pm_ref with a bad role", { pm_refs: [{ provider: "jira", id: "SHOP-1", role: "owner" }] }, "pm_refs[0].role", /must be source, child, deploy, incident or linked/],
    ["recently_done at that is no real date", { recently_done: [{ at: "2026-13-01T00:00:00Z", action: "x" }] }, "recently_done[0].at", /is not a real date and time/],
    // Checkpoint Protocol 1.1 (cost, eval_scores, telemetry_handle)
    ["cost that is a list", { cost: [1] }, "cost", /must be an object \(got an array\)/],
    ["a negative cost", { cost: { total_usd: -1 } }, "cost.total_usd", /must be a number ≥ 0 \(got number -1\)/],
    ["a budget given as text", { cost: { budget_usd: "50" } }, "cost.budget_usd", /must be a number \(got the string '50'\)/],
    ["cost per phase that is not a number", { cost: { by_phase: { spec: "lots" } } }, "cost.by_phase.spec", /must be a number/],
    ["cost per model that is a list", { cost: { by_model: [1] } }, "cost.by_model", /must be an object \(got an array\)/],
    ["eval_scores that is not a list", { eval_scores: { rubric: "r", score: 1 } }, "eval_scores", /must be an array/],
    ["an eval score without a rubric", { eval_scores: [{ score: 8 }] }, "eval_scores[0].rubric", /is required/],
    ["an eval score without a score", { eval_scores: [{ rubric: "r" }] }, "eval_scores[0].score", /is required/],
    ["an eval score that is text", { eval_scores: [{ rubric: "r", score: "high" }] }, "eval_scores[0].score", /must be a number/],
    ["an eval score over its max", { eval_scores: [{ rubric: "r", score: 11, max: 10 }] }, "eval_scores[0].score", /is 11, above its max 10/],
    ["an eval max of 0", { eval_scores: [{ rubric: "r", score: 0, max: 0 }] }, "eval_scores[0].max", /must be a number > 0/],
    ["an eval date without a time", { eval_scores: [{ rubric: "r", score: 1, at: "2026-06-01" }] }, "eval_scores[0].at", /ISO 8601 UTC timestamp/],
    ["an eval dimension that is not a number", { eval_scores: [{ rubric: "r", score: 1, dimensions: { ux: "good" } }] }, "eval_scores[0].dimensions.ux", /must be a number/],
    ["an empty telemetry handle", { telemetry_handle: "  " }, "telemetry_handle", /must not be empty/],
    ["a telemetry handle that is a number", { telemetry_handle: 42 }, "telemetry_handle", /must be a string, an object or a null/],
    ["telemetry enabled given as text", { telemetry_handle: { enabled: "yes" } }, "telemetry_handle.enabled", /must be a boolean/],
    ["telemetry since that is not a timestamp", { telemetry_handle: { since: "yesterday" } }, "telemetry_handle.since", /ISO 8601 UTC timestamp/],
  ];
  it.each(cases)("%s", (_name, overrides, path, message) => {
    const result = check(minimalCheckpoint("builder", overrides));
    const found = result.errors.find((p) => p.path === path);
    expect(found, JSON.stringify(result.errors)).toBeDefined();
    expect(found!.message).toMatch(message);
    expect(result.checkpoint).toBeNull();
  });

  it("a skill that does not match the file name says how to fix it both ways", () => {
    const result = check(minimalCheckpoint("deployer"), "builder.checkpoint.json");
    expect(result.errors).toEqual([{ path: "skill", message: "is 'deployer' but the file is builder.checkpoint.json: rename the file to deployer.checkpoint.json or set skill to 'builder'" }]);
  });

  it("a skill that cannot name a file (a space, a slash)", () => {
    expect(check(minimalCheckpoint("a b"), "a b.checkpoint.json").errors[0]).toMatchObject({ path: "skill", message: expect.stringMatching(/may only contain letters/) });
    expect(check(minimalCheckpoint("a/b"), "b.checkpoint.json").errors[0]).toMatchObject({ path: "skill", message: expect.stringMatching(/must not contain '\/'/) });
  });

  it("a JSON value that is not an object", () => {
    for (const doc of ["[]", "\"x\"", "null", "3"]) {
      const result = check(doc);
      expect(result.errors).toEqual([{ path: "", message: expect.stringMatching(/must be a JSON object \(the checkpoint\)/) }]);
    }
  });
});

describe("errors: invalid JSON names the line and column", () => {
  const cases: [string, string, RegExp][] = [
    ["a missing comma", '{\n  "a": 1\n  "b": 2\n}', /line 3, column 3: expected ',' or '}', found '"' \(a missing comma\?\)/],
    ["a trailing comma", '{\n  "a": [1, 2,]\n}', /line 2, column 14: trailing comma before '\]'/],
    ["a single-quoted string", "{'a': 1}", /line 1, column 2: expected a property name in double quotes, found '''/],
    ["an unclosed object", '{\n  "a": 1\n', /line 3, column 1: unexpected end of file: '\{' is never closed/],
    ["an empty file", "", /line 1, column 1: the file is empty/],
    ["trailing garbage", '{"a": 1} x', /line 1, column 10: unexpected 'x' after the end of the JSON value/],
    ["a raw line break inside a string", '{"a": "one\ntwo"}', /line 1, column 11: unterminated string/],
    ["binary garbage", "\u0000\u0001\u0002PK\u0003\u0004", /line 1, column 1: expected a value, found a NUL byte \(binary data\?\)/],
    ["bytes that are not UTF-8", Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString("utf8"), /line 1, column 2: expected a property name in double quotes, found a byte sequence that is not UTF-8 text/],
  ];
  it.each(cases)("%s", (_name, text, message) => {
    const result = check(text);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.path).toBe("");
    expect(result.errors[0]!.message).toMatch(/^is not valid JSON \(/);
    expect(result.errors[0]!.message).toMatch(message);
    expect(result.document).toBeUndefined();
  });

  it("a leading byte-order mark is tolerated", () => {
    expect(check("\uFEFF" + JSON.stringify(minimalCheckpoint())).errors).toEqual([]);
  });
});

describe("warnings: one fixture per rule", () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["no progress_table while in progress", { progress_table: undefined }, "progress_table", /is missing \(or not a list\) while status is in_progress/],
    ["a progress_table that is not a list, while in progress", { progress_table: { id: "x" } }, "progress_table", /is missing \(or not a list\) while status is in_progress/],
    ["no context_primer while in progress", { context_primer: undefined }, "context_primer", /is missing while status is in_progress/],
    ["a blocker naming no table row", { blockers: [{ id: "b1", description: "x", needs: "code_fix", blocking: "deploy" }] }, "blockers[0].blocking", /names 'deploy', which is not a progress_table row id/],
    ["a blocker naming a list of rows (a value the protocol compares with row ids)", { blockers: [{ id: "b1", description: "x", needs: "code_fix", blocking: ["handlers"] }] }, "blockers[0].blocking", /names \["handlers"\], which is not a progress_table row id/],
    ["updated_at more than 24 hours ahead", { updated_at: "2026-03-02T13:00:00.000Z" }, "updated_at", /is 25h in the future: stamp it with the current UTC time/],
    ["a summary over 1200 characters", { progress_summary: "x".repeat(1201) }, "progress_summary", /is 1201 characters: keep it under 1200/],
    ["spend over budget (1.1)", { protocol_version: "1.1", cost: { total_usd: 80.5, budget_usd: 50 } }, "cost.total_usd", /is 80\.5, over cost\.budget_usd 50: the budget is spent/],
  ];
  it.each(cases)("%s", (_name, overrides, path, message) => {
    const result = check(minimalCheckpoint("builder", overrides));
    expect(result.errors).toEqual([]);
    const found = result.warnings.find((p) => p.path === path);
    expect(found, JSON.stringify(result.warnings)).toBeDefined();
    expect(found!.message).toMatch(message);
    expect(result.checkpoint).not.toBeNull();
  });
  it("a file over 32 KB", () => {
    const text = JSON.stringify(minimalCheckpoint("builder", { skill_state: { blob: "y".repeat(33 * 1024) } }));
    const result = validateCheckpointText(schema, { fileName: "builder.checkpoint.json", text, sizeBytes: Buffer.byteLength(text), now: NOW });
    expect(result.warnings).toContainEqual({ path: "", message: expect.stringMatching(/^the file is \d+ bytes: keep a checkpoint under 32 KB/) });
  });

  it("no warnings at the edges: 1200 characters, 23 hours of clock skew, complete without a table, spend equal to the budget or a budget of 0", () => {
    expect(check(minimalCheckpoint("builder", { progress_summary: "x".repeat(1200) })).warnings).toEqual([]);
    expect(check(minimalCheckpoint("builder", { updated_at: "2026-03-02T11:00:00.000Z" })).warnings).toEqual([]);
    expect(check(minimalCheckpoint("builder", { protocol_version: "1.1", cost: { total_usd: 50, budget_usd: 50 } })).warnings).toEqual([]);
    expect(check(minimalCheckpoint("builder", { protocol_version: "1.1", cost: { total_usd: 5, budget_usd: 0 } })).warnings).toEqual([]);
    expect(check(minimalCheckpoint("builder", { status: "complete", progress_table: undefined, context_primer: undefined, next_actions: [] })).warnings).toEqual([]);
  });

  it("staleness is not judged by the validator: a year-old file is still valid and unwarned", () => {
    const result = check(minimalCheckpoint(), "builder.checkpoint.json", Date.parse("2027-03-01T00:00:00.000Z"));
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([]);
  });
});

describe("combinations", () => {
  it("reports every error and every warning at once, sorted by path", () => {
    const doc = minimalCheckpoint("builder", {
      protocol_version: "2.0",
      status: "paused",
      phase: "",
      progress_table: [{ id: "a", label: "A", status: "complete" }, { id: "a", label: "B", status: "nope" }],
      blockers: [{ id: "b1", description: "x", needs: "user_decision", blocking: "zzz" }],
      extra: true,
    });
    const result = check(doc, "other.checkpoint.json");
    expect(paths(result.errors)).toEqual(["phase", "progress_table[1].status", "protocol_version", "skill", "status"]);
    expect(paths(result.warnings)).toEqual(["blockers[0].blocking"]);
    expect(paths(result.hints)).toEqual(["extra", "progress_table[1].id"]);
  });

  it("the full example with its skill_state removed and extra rows stays valid", () => {
    const doc = exampleCheckpoint();
    delete doc.skill_state;
    doc.progress_table!.push({ id: "ops", label: "Runbook", status: "not_started" });
    expect(check(doc, "architect.checkpoint.json").errors).toEqual([]);
  });

  it("every status of the protocol validates (next actions are only required while in progress)", () => {
    for (const status of ["blocked", "complete", "failed"]) {
      expect(check(minimalCheckpoint("builder", { status, next_actions: undefined })).errors, status).toEqual([]);
    }
  });
});

describe("long tables (ids are looked up differently past a few dozen rows)", () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, label: `Row ${i}`, status: "complete" }));

  it.each([5, 40])("a duplicate id is a hint against the first row holding it, in a table of %i rows", (n) => {
    const table = rows(n);
    table.push({ id: "r3", label: "Again", status: "complete" }, { id: "r3", label: "Once more", status: "complete" });
    const result = check(minimalCheckpoint("builder", { progress_table: table }));
    expect(result.errors).toEqual([]);
    expect(result.hints).toEqual([
      { path: `progress_table[${n}].id`, message: "duplicates progress_table[3].id 'r3': blockers and the doctor name rows by id" },
      { path: `progress_table[${n + 1}].id`, message: "duplicates progress_table[3].id 'r3': blockers and the doctor name rows by id" },
    ]);
  });

  it.each([5, 40])("blocking is compared with every row id of a table of %i rows", (n) => {
    const blockers = [
      { id: "b1", description: "x", needs: "code_fix", blocking: `r${n - 1}` },
      { id: "b2", description: "y", needs: "code_fix", blocking: "gone" },
    ];
    const result = check(minimalCheckpoint("builder", { progress_table: rows(n), blockers }));
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([{ path: "blockers[1].blocking", message: "names 'gone', which is not a progress_table row id: use one row's id or drop blocking" }]);
  });
});

describe("hints: advice the protocol does not make an error or a warning", () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["an unknown top-level key", { notes: "x" }, "notes", /is not a Checkpoint Protocol field .*keep skill-private data in skill_state/],
    ["a typo in a field name", { next_action: "x" }, "next_action", /is not a Checkpoint Protocol field/],
    ["an unknown key in a table row", { progress_table: [{ id: "a", label: "A", status: "complete", owner: "me" }] }, "progress_table[0].owner", /known: id, label, status/],
    ["a phase that is a number", { phase: 5 }, "phase", /is a number \(5\): readers show it as text/],
    ["a step of spaces", { step: "   " }, "step", /holds only whitespace/],
    ["a table row id that is a number", { progress_table: [{ id: 7, label: "A", status: "complete" }] }, "progress_table[0].id", /is a number \(7\): write it as a string/],
    ["an empty progress_table while in progress", { progress_table: [] }, "progress_table", /is empty while status is in_progress/],
    ["blockers that are not a list", { blockers: { id: "b" } }, "blockers", /is an object, not a list: it is ignored/],
    ["a blocker without needs", { blockers: [{ id: "b1", description: "Waiting" }] }, "blockers[0].needs", /is missing: say who must act/],
    ["a context_primer that is null", { context_primer: null }, "context_primer", /is null: an object \{key_decisions/],
    ["a context_primer list that is text", { context_primer: { key_decisions: "x" } }, "context_primer.key_decisions", /is a string: a list of strings is expected/],
    ["an empty next action", { next_actions: [""] }, "next_actions[0]", /is empty: the next session reads next_actions\[0\] first/],
    ["a pm_ref without a role", { pm_refs: [{ provider: "jira", id: "SHOP-1" }] }, "pm_refs[0].role", /is missing/],
    ["a pm_ref url that is not http(s)", { pm_refs: [{ provider: "jira", id: "SHOP-1", role: "source", url: "ftp://x/y" }] }, "pm_refs[0].url", /is not an http\(s\) URL/],
    ["a pm_ref first_seen_at that is not a timestamp", { pm_refs: [{ provider: "jira", id: "SHOP-1", role: "source", first_seen_at: "whenever" }] }, "pm_refs[0].first_seen_at", /is not an ISO 8601 UTC timestamp/],
    ["recently_done that is not a list", { recently_done: "done it" }, "recently_done", /is a string, not a list/],
    ["more than 10 recently_done entries", { recently_done: Array.from({ length: 11 }, () => ({ at: "2026-03-01T08:30:00.000Z", action: "x" })) }, "recently_done", /holds 11 entries: `done` keeps the newest 10/],
    ["skill_state that is not an object", { skill_state: "notes" }, "skill_state", /is a string: skills keep their private state in an object/],
    ["updated_at a few hours ahead of the clock", { updated_at: "2026-03-01T15:00:00.000Z" }, "updated_at", /is 3h ahead of this machine's clock \(tolerated up to 24h\)/],
    ["a 1.1 field in a file that says 1.0", { cost: { total_usd: 1 } }, "cost", /is a Checkpoint Protocol 1\.1 field in a file that says protocol_version "1\.0"/],
  ];
  it.each(cases)("%s", (_name, overrides, path, message) => {
    const result = check(minimalCheckpoint("builder", overrides));
    expect(result.errors, JSON.stringify(result.errors)).toEqual([]);
    expect(result.warnings).toEqual([]);
    const found = result.hints.find((p) => p.path === path);
    expect(found, JSON.stringify(result.hints)).toBeDefined();
    expect(found!.message).toMatch(message);
    expect(result.checkpoint).not.toBeNull();
  });

  it("the view the services read makes untyped values text and drops what they cannot use", () => {
    const result = check(minimalCheckpoint("builder", { phase: 5, step: true, blockers: { id: "b" }, context_primer: { key_decisions: ["a", 3] }, progress_table: [{ id: 7, label: "Seven", status: "complete" }] }));
    expect(result.checkpoint).toMatchObject({ phase: "5", step: "true", context_primer: { key_decisions: ["a"] }, progress_table: [{ id: "7", label: "Seven", status: "complete" }] });
    expect(result.checkpoint!.blockers).toBeUndefined();
    expect((result.document as Record<string, unknown>).phase).toBe(5);
  });
});

describe("Checkpoint Protocol 1.1", () => {
  it("a 1.1 file using every 1.1 field is valid with no warnings or hints", () => {
    const doc = minimalCheckpoint("builder", {
      protocol_version: "1.1",
      cost: { total_usd: 12.5, budget_usd: 50, by_phase: { spec: 2, build: 10.5 }, by_model: { "model-a": 12.5 }, currency: "USD", tokens: { input: 1200 } },
      eval_scores: [{ rubric: "bug-check", score: 8, max: 10, at: "2026-03-01T08:30:00.000Z", dimensions: { correctness: 9, style: -1 } }, { rubric: "pass_rate", score: 0.92, max: 1 }, { rubric: "open", score: 11 }],
      telemetry_handle: { enabled: false, id: "anon-1", sink: ".opchain/telemetry.jsonl", since: "2026-03-01T08:00:00Z" },
    });
    const result = check(doc);
    expect([result.errors, result.warnings, result.hints]).toEqual([[], [], []]);
    expect(result.checkpoint?.cost?.total_usd).toBe(12.5);
  });

  it.each([["a string handle", "tele-7f3a"], ["null", null], ["an empty object", {}]])("telemetry_handle as %s is valid", (_name, handle) => {
    expect(check(minimalCheckpoint("builder", { protocol_version: "1.1", telemetry_handle: handle })).errors).toEqual([]);
  });
});
