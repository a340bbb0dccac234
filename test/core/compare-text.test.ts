import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compareText } from "../../src/core/compare-text.js";

describe("compareText", () => {
  it("orders by UTF-16 code units, whatever the locale: upper case before lower, ISO instants by time", () => {
    expect(["b", "B", "a", "A", "_"].sort(compareText)).toEqual(["A", "B", "_", "a", "b"]);
    expect(["2026-12-04T10:00:00.000Z", "2026-01-31T23:59:59.999Z", "2025-12-31T00:00:00.000Z"].sort(compareText)).toEqual(["2025-12-31T00:00:00.000Z", "2026-01-31T23:59:59.999Z", "2026-12-04T10:00:00.000Z"]);
    expect(compareText("run:a", "run:a")).toBe(0);
  });

  it("is the order canonical JSON sorts keys in (a consistent total order)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (a, b) => {
        const expected = a === b ? 0 : [a, b].sort()[0] === a ? -1 : 1; // Array#sort without a comparator compares code units
        expect(compareText(a, b)).toBe(expected);
        expect(compareText(b, a)).toBe(expected === 0 ? 0 : -expected);
      }),
      { numRuns: 2000 },
    );
  });
});
