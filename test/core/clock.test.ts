import { describe, expect, it } from "vitest";
import { clockFromEnv, fixedClock, isoUtc } from "../../src/core/clock.js";

describe("clock", () => {
  it("formats ISO 8601 UTC with milliseconds and Z", () => {
    expect(isoUtc(0)).toBe("1970-01-01T00:00:00.000Z");
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
