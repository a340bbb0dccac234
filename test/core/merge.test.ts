import { describe, expect, it } from "vitest";
import { AopError } from "../../src/core/errors.js";
import { applyMergePatch, mergeDocuments } from "../../src/core/merge.js";

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

  it("keeps a __proto__ key read from a file as data when merging over it", () => {
    const target = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown;
    const out = applyMergePatch(target, { b: 2 }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

const deepMerge = (base: unknown, override: unknown) => mergeDocuments(base, override, { nullRemoves: false });

describe("policy merge: the same rule, but an explicit null replaces", () => {
  it("merges objects key by key", () => {
    expect(deepMerge({ a: { x: 1, y: 2 }, b: 1 }, { a: { y: 3 } })).toEqual({ a: { x: 1, y: 3 }, b: 1 });
  });
  it("replaces arrays instead of concatenating", () => {
    expect(deepMerge({ list: [1, 2, 3] }, { list: [9] })).toEqual({ list: [9] });
  });
  it("lets an explicit null replace a default", () => {
    expect(deepMerge({ a: { x: 1 } }, { a: null })).toEqual({ a: null });
  });
  it("adds keys the base does not have and never mutates its inputs (nor shares objects with them)", () => {
    const base = { a: { x: 1 }, keep: { deep: [1] } };
    const over = { a: { z: [1] }, n: 2 };
    const merged = deepMerge(base, over) as { a: { z: number[] }; keep: { deep: number[] } };
    merged.a.z.push(2);
    merged.keep.deep.push(2);
    expect(base).toEqual({ a: { x: 1 }, keep: { deep: [1] } });
    expect(over).toEqual({ a: { z: [1] }, n: 2 });
  });
  it("keeps the base when the override is undefined", () => {
    expect(deepMerge({ a: 1 }, undefined)).toEqual({ a: 1 });
  });
});

describe("keys that reach a prototype are refused by both merges, with the path and the reason", () => {
  const cases: [string, string, string][] = [
    ["a top-level __proto__", '{"__proto__": {"polluted": true}}', "__proto__"],
    ["a nested constructor", '{"a": {"constructor": {"prototype": {"x": 1}}}}', "a.constructor"],
    ["a prototype inside an array", '{"list": [{"ok": 1}, {"prototype": 1}]}', "list[1].prototype"],
  ];
  it.each(cases)("%s", (_name, json, path) => {
    for (const [merge, label] of [[(o: unknown) => applyMergePatch({}, o), "patch."], [(o: unknown) => deepMerge({}, o), ""]] as const) {
      let thrown: unknown;
      try {
        merge(JSON.parse(json));
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(AopError);
      expect((thrown as AopError).code).toBe("invalid_argument");
      expect((thrown as AopError).message).toBe(`${label}${path}: the key '${path.slice(path.lastIndexOf(".") + 1)}' is refused (__proto__, constructor and prototype would reach an object's prototype); rename or remove it`);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
