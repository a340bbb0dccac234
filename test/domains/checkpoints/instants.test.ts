import { describe, expect, it } from "vitest";
import { instantOf, isRealInstant } from "../../../src/domains/checkpoints/checkpoint-rules.js";

// A calendar written out independently of the rules: which Y-M-D h:m:s name a real instant.
function isRealDate(year: number, month: number, day: number, hour: number, minute: number, second: number): boolean {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days && hour <= 23 && minute <= 59 && second <= 59;
}

const two = (n: number) => String(n).padStart(2, "0");

describe("timestamps: instantOf is Date.parse for real instants, NaN for anything else", () => {
  it("agrees with the calendar across leap years, month lengths and out-of-range fields", () => {
    let checked = 0;
    for (const year of [0, 4, 100, 400, 1900, 2000, 2024, 2026, 2100, 9999]) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          for (const [hour, minute, second] of [[0, 0, 0], [23, 59, 59], [24, 0, 0], [12, 60, 0], [12, 0, 60], [99, 99, 99]] as const) {
            const value = `${String(year).padStart(4, "0")}-${two(month)}-${two(day)}T${two(hour)}:${two(minute)}:${two(second)}Z`;
            const expected = isRealDate(year, month, day, hour, minute, second) ? Date.parse(value) : NaN;
            if (!Object.is(instantOf(value), expected)) expect(instantOf(value), value).toBe(expected);
            expect(isRealInstant(value)).toBe(!Number.isNaN(expected));
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(10 * 14 * 33 * 6);
  });

  it("fractions of a second of any length, as Date.parse reads them (the protocol's pattern allows any)", () => {
    for (const fraction of ["", ".5", ".12", ".999", ".9999", ".000000001", ".123456789", ".1234567890", ".12345678901234"]) {
      const value = `2024-02-29T23:59:59${fraction}Z`;
      expect(instantOf(value)).toBe(Date.parse(value));
    }
  });

  it("other shapes are NaN: offsets, spaces, missing parts, a lowercase z", () => {
    for (const value of ["2026-03-01T09:00:00+01:00", "2026-03-01 09:00:00Z", "2026-03-01", "2026-3-01T09:00:00Z", "2026-03-01T09:00:00.Z", "2026-03-01T09:00Z", "2026-03-01T09:00:00z", " 2026-03-01T09:00:00Z"]) {
      expect(instantOf(value), value).toBeNaN();
    }
  });
});
