import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clockFromEnv, fixedClock, isoUtc } from "../../src/core/clock.js";

describe("clock", () => {
  it("formats ISO 8601 UTC with milliseconds and Z", () => {
    expect(isoUtc(0)).toBe("1970-01-01T00:00:00.000Z");
  });

  it("formats every instant as Date.prototype.toISOString does", () => {
    const reference = (ms: number) => new Date(ms).toISOString();
    // Day, month, leap-year and century edges, the ends of the computed range, fractions, and past it.
    const edges = [0, 999, 86_399_999, 86_400_000, Date.UTC(2000, 1, 29, 23, 59, 59, 999), Date.UTC(2100, 2, 1), Date.UTC(2024, 11, 31, 23, 59, 59, 999), 253_402_300_799_999, 1.7e12 + 0.75];
    for (const ms of edges) expect(isoUtc(ms), String(ms)).toBe(reference(ms));
    for (const ms of [-1, -62_198_755_200_000, 253_402_300_800_000]) expect(isoUtc(ms)).toBe(reference(ms));
    expect(() => isoUtc(Number.NaN)).toThrow(RangeError);
    fc.assert(fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => isoUtc(ms) === reference(ms)), { numRuns: 2000 });
  });

  it("can be fixed and advanced", () => {
    const clock = fixedClock("2026-01-01T00:00:00.000Z");
    clock.advance(1500);
    expect(isoUtc(clock.now())).toBe("2026-01-01T00:00:01.500Z");
  });

  it("honours AOP_NOW and ignores garbage", () => {
    expect(clockFromEnv({ AOP_NOW: "2030-05-05T05:05:05.000Z" }).now()).toBe(Date.parse("2030-05-05T05:05:05.000Z"));
    expect(Math.abs(clockFromEnv({ AOP_NOW: "soon" }).now() - Date.now())).toBeLessThan(5_000);
  });
});
