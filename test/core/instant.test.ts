import { describe, expect, it } from "vitest";
import { instantOf, isIsoUtc, parseUserInstant } from "../../src/core/instant.js";

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
            expect(isIsoUtc(value)).toBe(!Number.isNaN(expected));
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

describe("one rule for every instant", () => {
  it("isIsoUtc refuses impossible dates that Date.parse rolls over (February 30th, hour 24)", () => {
    expect(Number.isNaN(Date.parse("2026-02-30T00:00:00Z"))).toBe(false); // what the rule exists for
    for (const value of ["2026-02-30T00:00:00Z", "2025-02-29T12:00:00.000Z", "2026-04-31T00:00:00Z", "2026-03-01T24:00:00Z"]) expect(isIsoUtc(value), value).toBe(false);
    for (const value of ["2024-02-29T12:00:00.000Z", "2026-03-01T23:59:59Z"]) expect(isIsoUtc(value), value).toBe(true);
    expect(isIsoUtc("2026-01-01T00:00:00+01:00")).toBe(false);
    expect(isIsoUtc("2026-13-01T00:00:00Z")).toBe(false);
    expect(isIsoUtc(5)).toBe(false);
  });

  it("parseUserInstant reads what a person types (dates, offsets) but refuses impossible dates", () => {
    expect(parseUserInstant("2026-03-01")).toBe(Date.parse("2026-03-01"));
    expect(parseUserInstant("2026-03-01T10:00:00+01:00")).toBe(Date.parse("2026-03-01T09:00:00Z"));
    for (const value of ["2026-02-30", "2026-02-30T10:00:00Z", "2026-03-01T24:00:00Z", "last tuesday", "", "03/01/2026"]) expect(parseUserInstant(value), value).toBeNaN();
  });
});
