import { describe, expect, it } from "vitest";
import { deepMerge } from "../../src/config/deep-merge.js";

describe("deepMerge", () => {
  it("merges objects key by key", () => {
    expect(deepMerge({ a: { x: 1, y: 2 }, b: 1 }, { a: { y: 3 } })).toEqual({ a: { x: 1, y: 3 }, b: 1 });
  });
  it("replaces arrays instead of concatenating", () => {
    expect(deepMerge({ list: [1, 2, 3] }, { list: [9] })).toEqual({ list: [9] });
  });
  it("lets an explicit null replace a default", () => {
    expect(deepMerge({ a: { x: 1 } }, { a: null })).toEqual({ a: null });
  });
  it("adds keys the base does not have and never mutates its inputs", () => {
    const base = { a: { x: 1 } };
    const over = { a: { z: [1] }, n: 2 };
    const merged = deepMerge(base, over) as { a: { z: number[] } };
    merged.a.z.push(2);
    expect(base).toEqual({ a: { x: 1 } });
    expect(over).toEqual({ a: { z: [1] }, n: 2 });
  });
  it("keeps the base when the override is undefined", () => {
    expect(deepMerge({ a: 1 }, undefined)).toEqual({ a: 1 });
  });
});
