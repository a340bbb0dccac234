// Build-time inlining of `#/$defs` references (scripts/generate.mjs): the compiled validators must
// report exactly what the schema as written reports.
import fs from "node:fs";
import path from "node:path";
import Ajv2020Module from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { AJV_OPTIONS, inlineLocalRefs } from "../../scripts/generate.mjs";
import { exampleCheckpoint, minimalCheckpoint } from "../domains/checkpoints/fixture.js";
import { REPO_ROOT } from "../helpers/paths.js";

type Schema = Record<string, unknown>;
type Validate = ((data: unknown) => boolean) & { errors?: { instancePath: string; keyword: string; params: unknown; message?: string; data?: unknown; parentSchema?: Schema }[] | null };

const Ajv2020 = Ajv2020Module.default;
const CHECKPOINT_SCHEMA = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schemas", "checkpoint", "checkpoint.schema.json"), "utf8")) as Schema;

function compile(schema: Schema): Validate {
  return new Ajv2020(AJV_OPTIONS).compile(schema) as unknown as Validate;
}

/** What the checkpoint messages are built from (schemaPath names the definition, so it differs). */
function reported(validate: Validate, data: unknown) {
  const valid = validate(data);
  return {
    valid,
    errors: (validate.errors ?? []).map((e) => ({
      instancePath: e.instancePath,
      keyword: e.keyword,
      params: e.params,
      message: e.message,
      data: e.data,
      knownKeys: Object.keys((e.parentSchema?.properties as Schema | undefined) ?? {}),
    })),
  };
}

const row = { id: "r1", label: "Rows", status: "complete" };
const BROKEN: [string, Record<string, unknown>][] = [
  ["a row that is a string, one without a label, one with a bad status, one with an extra key", { progress_table: ["r", { id: "a", status: "complete" }, { ...row, status: "finished" }, { ...row, note: 1 }] }],
  ["empty and non-string texts in every list of the primer, and a key it does not know", { context_primer: { key_decisions: ["", 3], generated_files: " ", user_preferences: [null], mood: "good" } }],
  ["actions: a number, a blank string, an object without text, one with an empty done_when and an extra key", { next_actions: [42, "  ", { done_when: "x" }, { text: "t", done_when: "", why: 1 }] }],
  ["blockers: no needs, a bad needs, blocking empty, blocking a number, blocking a list with a blank", { blockers: [{ id: "b", description: "d" }, { id: "c", description: "d", needs: "x" }, { id: "e", description: "d", needs: "code_fix", blocking: [] }, { id: "f", description: "d", needs: "code_fix", blocking: 3 }, { id: "g", description: "d", needs: "code_fix", blocking: ["r1", " "] }] }],
  ["1.1 fields: cost, eval_scores and telemetry_handle each broken several ways", { cost: { total_usd: -1, budget_usd: "5", by_phase: { a: "x" }, by_model: [1] }, eval_scores: [{ score: "s", max: 0, at: "now", dimensions: { d: "x" } }, 3], telemetry_handle: { enabled: "yes", id: 1, since: "then" } }],
  ["pm_refs: no provider, a bad role, an ftp url, a bad first_seen_at, an extra key", { pm_refs: [{ id: "S-1", role: "source" }, { provider: "j", id: "S-1", role: "owner" }, { provider: "j", id: "S-1", role: "source", url: "ftp://x" }, { provider: "j", id: "S-1", role: "source", first_seen_at: "now" }, { provider: "j", id: "S-1", role: "source", body: "no" }] }],
  ["top-level: wrong version, bad status, non-string phase, bad timestamps, unknown key, skill_state not an object", { protocol_version: 1, status: "done", phase: 3, created_at: "2026-03-01", updated_at: 5, next_action: "typo", skill_state: [] }],
  ["in progress without next actions", { next_actions: undefined }],
  ["lists that are not lists", { progress_table: {}, blockers: "b", next_actions: { text: "x" }, recently_done: 1, pm_refs: null }],
];

describe("inlining #/$defs references keeps every error", () => {
  const asWritten = compile(CHECKPOINT_SCHEMA);
  const inlined = compile(inlineLocalRefs(CHECKPOINT_SCHEMA));

  it("leaves no reference in the checkpoint schema", () => {
    expect(JSON.stringify(inlineLocalRefs(CHECKPOINT_SCHEMA))).not.toContain("$ref");
  });

  it("the protocol's full example and a minimal file are valid either way", () => {
    for (const doc of [exampleCheckpoint(), minimalCheckpoint()]) {
      expect(reported(inlined, doc)).toEqual({ valid: true, errors: [] });
      expect(reported(asWritten, doc)).toEqual({ valid: true, errors: [] });
    }
  });

  it.each(BROKEN)("%s", (_name, overrides) => {
    const doc = minimalCheckpoint("builder", overrides);
    const expected = reported(asWritten, doc);
    expect(expected.errors.length).toBeGreaterThan(0);
    expect(reported(inlined, doc)).toEqual(expected);
  });

  it("not an object at all", () => {
    for (const doc of [null, [], "x", 3]) expect(reported(inlined, doc)).toEqual(reported(asWritten, doc));
  });
});

describe("schemas inlining cannot flatten are compiled as written", () => {
  it("a definition that refers to itself", () => {
    const tree = { $defs: { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } } }, $ref: "#/$defs/node" };
    expect(inlineLocalRefs(tree)).toBe(tree);
  });

  it("a reference with sibling keywords, or to somewhere else", () => {
    const siblings = { $defs: { id: { type: "string" } }, properties: { a: { $ref: "#/$defs/id", minLength: 2 } } };
    expect(inlineLocalRefs(siblings)).toBe(siblings);
    const elsewhere = { properties: { a: { $ref: "other.json#/x" } } };
    expect(inlineLocalRefs(elsewhere)).toBe(elsewhere);
  });

  it("values that are data, not schemas, are copied as they are", () => {
    const schema = { $defs: { s: { type: "string" } }, properties: { a: { $ref: "#/$defs/s" }, b: { const: { $ref: "#/$defs/s" } }, c: { enum: [{ $ref: "#/$defs/s" }] } } };
    expect(inlineLocalRefs(schema)).toEqual({ properties: { a: { type: "string" }, b: { const: { $ref: "#/$defs/s" } }, c: { enum: [{ $ref: "#/$defs/s" }] } } });
  });
});
