import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCount } from "../../src/core/format-count.js";

describe("formatCount", () => {
  it("groups thousands with commas", () => {
    expect([0, 7, 999, 1000, 12345, 1_000_000, -4321].map(formatCount)).toEqual(["0", "7", "999", "1,000", "12,345", "1,000,000", "-4,321"]);
  });

  it("writes what toLocaleString('en-US') writes, for every safe integer and the rest", () => {
    fc.assert(
      fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer(), fc.double()), (n) => {
        expect(formatCount(n)).toBe(n.toLocaleString("en-US"));
      }),
      { numRuns: 3000 },
    );
  });
});
