import { describe, expect, it } from "vitest";
import { applyAssignments, parseAssignment, parseAssignments, parsePath } from "../../../src/domains/checkpoints/assignments.js";
import { AopError } from "../../../src/core/errors.js";

function apply(doc: Record<string, unknown>, ...flags: string[]): Record<string, unknown> {
  return applyAssignments(doc, parseAssignments(flags));
}

function errorOf(fn: () => unknown): AopError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AopError) return err;
    throw err;
  }
  throw new Error("expected an AopError");
}

describe("parsing --k=v, --k+=v, --k:json=<json>", () => {
  it.each([
    ["--step=review", { path: ["step"], op: "set", value: "review" }],
    ["--context_primer.key_decisions+=Use Postgres", { path: ["context_primer", "key_decisions"], op: "append", value: "Use Postgres" }],
    ["--progress_table[2].status=complete", { path: ["progress_table", 2, "status"], op: "set", value: "complete" }],
    ["--progress_table.2.status=complete", { path: ["progress_table", 2, "status"], op: "set", value: "complete" }],
    ["--skill_state.retries:json=3", { path: ["skill_state", "retries"], op: "set", value: 3 }],
    ['--next_actions:json+={"text":"t","done_when":"npm test"}', { path: ["next_actions"], op: "append", value: { text: "t", done_when: "npm test" } }],
    ["--blockers[0]:json=null", { path: ["blockers", 0], op: "set", value: null }],
    ["--progress_summary=a = b, c += d", { path: ["progress_summary"], op: "set", value: "a = b, c += d" }],
    ["--phase=", { path: ["phase"], op: "set", value: "" }],
  ])("%s", (flag, expected) => {
    expect(parseAssignment(flag)).toMatchObject(expected);
  });

  it.each([
    ["--step", /is not an assignment/],
    ["step=x", /is not an assignment/],
    ["--a..b=x", /empty path segment/],
    ["--a.b c=x", /'b c' is not a valid key/],
    ["--[0]=x", /empty path segment/],
    ["--__proto__.x=1", /^--__proto__\.x=1: __proto__: the key '__proto__' is refused \(__proto__, constructor and prototype would reach an object's prototype\)/],
    ["--a.constructor=1", /^--a\.constructor=1: a\.constructor: the key 'constructor' is refused/],
    ['--skill_state:json={"a":[{"prototype":1}]}', /: value\.a\[0\]\.prototype: the key 'prototype' is refused/],
    ["--skill_state:json={bad", /the value is not valid JSON/],
    ["--updated_at=2026-01-01T00:00:00Z", /updated_at is stamped by update itself/],
  ])("refuses %s as a usage error", (flag, message) => {
    const err = errorOf(() => parseAssignment(flag));
    expect(err.code).toBe("usage_error");
    expect(err.message).toMatch(message);
  });

  it("paths start with a field name", () => {
    expect(errorOf(() => parsePath("0.a")).message).toMatch(/a path starts with a field name/);
  });
});

describe("applying assignments", () => {
  const base = () => ({ step: "a", progress_table: [{ id: "r1", label: "One", status: "in_progress" }], context_primer: { key_decisions: ["x"] }, next_actions: ["first"] });

  it("= sets a nested field and leaves the input untouched", () => {
    const input = base();
    const out = apply(input, "--progress_table[0].status=complete", "--step=b");
    expect(out).toMatchObject({ step: "b", progress_table: [{ id: "r1", status: "complete" }] });
    expect(input.progress_table[0]!.status).toBe("in_progress");
  });

  it("= creates missing objects on the way", () => {
    expect(apply(base(), "--skill_state.cursor.page=4")).toMatchObject({ skill_state: { cursor: { page: "4" } } });
  });

  it("+= appends to an array, and creates it when missing", () => {
    const out = apply(base(), "--context_primer.key_decisions+=y", "--context_primer.user_preferences+=short ADRs");
    expect(out.context_primer).toEqual({ key_decisions: ["x", "y"], user_preferences: ["short ADRs"] });
  });

  it(":json= sets typed values; :json+= appends objects", () => {
    const out = apply(base(), '--progress_table:json+={"id":"r2","label":"Two","status":"not_started"}', "--skill_state:json={\"n\":1,\"ok\":true}");
    expect(out.progress_table).toHaveLength(2);
    expect(out.skill_state).toEqual({ n: 1, ok: true });
  });

  it(":json=null removes a key or an array item", () => {
    const out = apply(base(), "--context_primer:json=null", "--progress_table[0]:json=null");
    expect(out).not.toHaveProperty("context_primer");
    expect(out.progress_table).toEqual([]);
  });

  it("an index one past the end appends; further is refused", () => {
    expect((apply(base(), "--next_actions[1]=second").next_actions as string[])[1]).toBe("second");
    expect(errorOf(() => apply(base(), "--next_actions[5]=x")).message).toMatch(/index 5 is past the end \(the array has 1 items\)/);
  });

  it.each([
    ["--step+=x", /step is not an array, so \+= cannot append to it/],
    ["--step.x=1", /step is string, not an object or array/],
    ["--progress_table.id=x", /progress_table is an array: index it with \[n\]/],
    ["--progress_table[3].status=x", /progress_table\[3\] does not exist \(the array has 1 items\)/],
    ["--blockers[0].id=x", /blockers does not exist: create the array first/],
    ["--context_primer[0]=x", /context_primer is not an array/],
  ])("refuses %s with invalid_argument", (flag, message) => {
    const err = errorOf(() => apply(base(), flag));
    expect(err.code).toBe("invalid_argument");
    expect(err.message).toMatch(message);
  });
});
