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

  it.each(["skill", "project", "project_dir", "phase", "step", "progress_summary"])("empty required field %s", (field) => {
    for (const empty of ["", "   "]) {
      const result = check(minimalCheckpoint("builder", { [field]: empty }));
      expect(result.errors).toContainEqual({ path: field, message: "must not be empty" });
    }
  });

  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ["wrong protocol_version", { protocol_version: "1.1" }, "protocol_version", /must be "1\.0" \(got the string '1\.1'\)/],
    ["protocol_version as a number", { protocol_version: 1 }, "protocol_version", /must be "1\.0" \(got number 1\)/],
    ["bad status enum", { status: "done" }, "status", /must be in_progress, blocked, complete or failed \(got the string 'done'\)/],
    ["a non-string phase", { phase: 3 }, "phase", /must be a string \(got number 3\)/],
    ["timestamp with an offset instead of Z", { created_at: "2026-03-01T08:00:00+01:00" }, "created_at", /ISO 8601 UTC timestamp ending in Z/],
    ["timestamp with a space", { updated_at: "2026-03-01 09:00:00Z" }, "updated_at", /ISO 8601 UTC timestamp ending in Z/],
    ["date without a time", { created_at: "2026-03-01" }, "created_at", /ISO 8601 UTC timestamp ending in Z/],
    ["a date that does not exist", { created_at: "2026-02-30T08:00:00.000Z", updated_at: "2026-03-01T09:00:00.000Z" }, "created_at", /is not a real date and time/],
    ["hour 24", { updated_at: "2026-03-01T24:00:00Z" }, "updated_at", /is not a real date and time/],
    ["updated_at before created_at", { created_at: "2026-03-01T10:00:00.000Z", updated_at: "2026-03-01T09:00:00.000Z" }, "updated_at", /is before created_at .*must be at or after created_at/],
    ["progress_table row without a label", { progress_table: [{ id: "a", status: "complete" }] }, "progress_table[0].label", /is required/],
    ["progress_table row with a bad status", { progress_table: [{ id: "a", label: "A", status: "finished" }] }, "progress_table[0].status", /must be complete, in_progress, not_started, blocked or failed/],
    ["progress_table row that is a string", { progress_table: ["a"] }, "progress_table[0]", /must be an object \(got the string 'a'\)/],
    ["duplicate progress_table ids", { progress_table: [{ id: "a", label: "A", status: "complete" }, { id: "a", label: "B", status: "complete" }] }, "progress_table[1].id", /duplicates progress_table\[0\]\.id 'a'/],
    ["next action that is a number", { next_actions: [42] }, "next_actions[0]", /must be a non-empty string or an object \{text, done_when\?\} \(got number 42\)/],
    ["next action that is an empty string", { next_actions: ["  "] }, "next_actions[0]", /must not be empty/],
    ["next action object without text", { next_actions: [{ done_when: "npm test" }] }, "next_actions[0].text", /is required/],
    ["next action with an empty done_when", { next_actions: [{ text: "Test", done_when: "" }] }, "next_actions[0].done_when", /must not be empty/],
    ["next_actions missing while in progress", { next_actions: undefined }, "next_actions", /is required while status is in_progress/],
    ["next_actions empty while in progress", { next_actions: [] }, "next_actions", /must hold at least one action while status is in_progress/],
    ["blocker without needs", { blockers: [{ id: "b1", description: "Waiting" }] }, "blockers[0].needs", /is required/],
    ["blocker with a bad needs", { blockers: [{ id: "b1", description: "Waiting", needs: "someone" }] }, "blockers[0].needs", /must be user_decision, code_fix or external_dep/],
    ["blocker with an empty blocking list", { blockers: [{ id: "b1", description: "Waiting", needs: "code_fix", blocking: [] }] }, "blockers[0].blocking", /must hold at least 1 item/],
    ["blocker blocking a number", { blockers: [{ id: "b1", description: "Waiting", needs: "code_fix", blocking: 3 }] }, "blockers[0].blocking", /must be a progress_table row id or an array of row ids/],
    ["duplicate blocker ids", { blockers: [{ id: "b", description: "x", needs: "code_fix" }, { id: "b", description: "y", needs: "code_fix" }] }, "blockers[1].id", /duplicates blockers\[0\]\.id 'b'/],
    ["pm_ref without provider", { pm_refs: [{ id: "SHOP-1", role: "source" }] }, "pm_refs[0].provider", /is required/],
    ["pm_ref with a bad role", { pm_refs: [{ provider: "jira", id: "SHOP-1", role: "owner" }] }, "pm_refs[0].role", /must be source, child, deploy, incident or linked/],
    ["pm_ref url that is not http(s)", { pm_refs: [{ provider: "jira", id: "SHOP-1", role: "source", url: "ftp://x/y" }] }, "pm_refs[0].url", /must be an http\(s\) URL/],
    ["pm_ref first_seen_at not UTC", { pm_refs: [{ provider: "jira", id: "SHOP-1", role: "source", first_seen_at: "yesterday" }] }, "pm_refs[0].first_seen_at", /ISO 8601 UTC/],
    ["context_primer list holding a number", { context_primer: { key_decisions: [1] } }, "context_primer.key_decisions[0]", /must be a string/],
    ["recently_done entry without at", { recently_done: [{ action: "x" }] }, "recently_done[0].at", /is required/],
    ["recently_done at that is no real date", { recently_done: [{ at: "2026-13-01T00:00:00Z", action: "x" }] }, "recently_done[0].at", /is not a real date and time/],
    ["skill_state that is not an object", { skill_state: "notes" }, "skill_state", /must be an object/],
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
    ["no progress_table while in progress", { progress_table: undefined }, "progress_table", /is missing or empty while status is in_progress/],
    ["an empty progress_table while in progress", { progress_table: [] }, "progress_table", /is missing or empty while status is in_progress/],
    ["no context_primer while in progress", { context_primer: undefined }, "context_primer", /is missing while status is in_progress/],
    ["a blocker naming no table row", { blockers: [{ id: "b1", description: "x", needs: "code_fix", blocking: "deploy" }] }, "blockers[0].blocking", /names 'deploy', which is not a progress_table row id/],
    ["a blocker list naming no table row", { blockers: [{ id: "b1", description: "x", needs: "code_fix", blocking: ["handlers", "deploy"] }] }, "blockers[0].blocking[1]", /names 'deploy'/],
    ["updated_at in the future", { updated_at: "2026-03-02T12:00:00.000Z" }, "updated_at", /is 24h in the future: stamp it with the current UTC time/],
    ["a summary over 1200 characters", { progress_summary: "x".repeat(1201) }, "progress_summary", /is 1201 characters: keep it under 1200/],
    ["an unknown top-level key", { notes: "x" }, "notes", /is not a Checkpoint Protocol 1\.0 field .*keep skill-private data in skill_state/],
    ["a typo in a field name", { next_action: "x" }, "next_action", /is not a Checkpoint Protocol 1\.0 field/],
    ["an unknown key in a table row", { progress_table: [{ id: "a", label: "A", status: "complete", owner: "me" }] }, "progress_table[0].owner", /known: id, label, status/],
    ["more than 10 recently_done entries", { recently_done: Array.from({ length: 11 }, () => ({ at: "2026-03-01T08:30:00.000Z", action: "x" })) }, "recently_done", /holds 11 entries: keep the newest 10/],
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

  it("no warnings at the edges: 1200 characters, a few minutes of clock skew, complete without a table", () => {
    expect(check(minimalCheckpoint("builder", { progress_summary: "x".repeat(1200) })).warnings).toEqual([]);
    expect(check(minimalCheckpoint("builder", { updated_at: "2026-03-01T12:04:00.000Z" })).warnings).toEqual([]);
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
    expect(paths(result.errors)).toEqual(["phase", "progress_table[1].id", "progress_table[1].status", "protocol_version", "skill", "status"]);
    expect(paths(result.warnings)).toEqual(["blockers[0].blocking", "extra"]);
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

  it.each([5, 40])("a duplicate id is reported against the first row holding it, in a table of %i rows", (n) => {
    const table = rows(n);
    table.push({ id: "r3", label: "Again", status: "complete" }, { id: "r3", label: "Once more", status: "complete" });
    expect(check(minimalCheckpoint("builder", { progress_table: table })).errors).toEqual([
      { path: `progress_table[${n}].id`, message: "duplicates progress_table[3].id 'r3': ids must be unique" },
      { path: `progress_table[${n + 1}].id`, message: "duplicates progress_table[3].id 'r3': ids must be unique" },
    ]);
  });

  it.each([5, 40])("blocking names are checked against every row of a table of %i rows", (n) => {
    const blockers = [{ id: "b1", description: "x", needs: "code_fix", blocking: [`r${n - 1}`, "r0", "gone"] }];
    const result = check(minimalCheckpoint("builder", { progress_table: rows(n), blockers }));
    expect(result.errors).toEqual([]);
    expect(result.warnings).toEqual([{ path: "blockers[0].blocking[2]", message: "names 'gone', which is not a progress_table row id: use a row's id or drop blocking" }]);
  });
});
