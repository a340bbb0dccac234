import { describe, expect, it } from "vitest";
import { applyMergePatch } from "../../../src/domains/checkpoints/merge-patch.js";

// The test vectors of RFC 7386, appendix A.
const RFC_7386: [unknown, unknown, unknown][] = [
  [{ a: "b" }, { a: "c" }, { a: "c" }],
  [{ a: "b" }, { b: "c" }, { a: "b", b: "c" }],
  [{ a: "b" }, { a: null }, {}],
  [{ a: "b", b: "c" }, { a: null }, { b: "c" }],
  [{ a: ["b"] }, { a: "c" }, { a: "c" }],
  [{ a: "c" }, { a: ["b"] }, { a: ["b"] }],
  [{ a: { b: "c" } }, { a: { b: "d", c: null } }, { a: { b: "d" } }],
  [{ a: [{ b: "c" }] }, { a: [1] }, { a: [1] }],
  [["a", "b"], ["c", "d"], ["c", "d"]],
  [{ a: "b" }, ["c"], ["c"]],
  [{ a: "foo" }, null, null],
  [{ a: "foo" }, "bar", "bar"],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: "b", c: null }, { a: "b" }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

describe("applyMergePatch (RFC 7386)", () => {
  it.each(RFC_7386)("%j + %j → %j", (target, patch, expected) => {
    expect(applyMergePatch(target, patch)).toEqual(expected);
  });

  it("does not modify its inputs", () => {
    const target = { a: { b: 1 } };
    const patch = { a: { c: [1] } };
    const out = applyMergePatch(target, patch) as { a: { c: number[] } };
    out.a.c.push(2);
    expect(target).toEqual({ a: { b: 1 } });
    expect(patch).toEqual({ a: { c: [1] } });
  });

  it("treats a __proto__ key as data, never as the prototype", () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    const out = applyMergePatch({}, patch) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
  });
});
