import { describe, expect, it } from "vitest";
import { formatAge, formatSpan } from "../../src/core/time-format.js";

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe("one age format for every message and table", () => {
  it.each([
    [0, "0s"],
    [59 * S + 999, "59s"],
    [60 * S, "1m"],
    [59 * M + 59 * S, "59m"],
    [H, "1h"],
    [36 * H, "36h"],
    [48 * H - 1, "47h"],
    [48 * H, "2d"],
    [10 * D + 23 * H, "10d"],
  ])("%d ms → %s (rounded down to the largest whole unit; hours up to two days)", (ms, text) => {
    expect(formatSpan(ms)).toBe(text);
    expect(formatSpan(-ms)).toBe(text);
  });

  it("says which way in time", () => {
    expect(formatAge(2 * H)).toBe("2h ago");
    expect(formatAge(-5 * M)).toBe("in 5m");
  });
});
