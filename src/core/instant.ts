// The one rule for instants (docs/foundation.md#instants): a timestamp is ISO 8601 UTC ending in `Z`
// and names a real instant — no February 30th, no hour 24. Pure.

/**
 * `YYYY-MM-DDTHH:MM:SS[.fraction]Z` with any number of fraction digits (the Checkpoint Protocol's
 * reference pattern): the shape; instantOf decides whether it is a real instant.
 */
export const ISO_UTC_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Two ASCII digits at `i` as a number (callers have matched a date shape). */
function twoDigits(value: string, i: number): number {
  return (value.charCodeAt(i) - 48) * 10 + (value.charCodeAt(i + 1) - 48);
}

function daysInMonth(value: string): number {
  const year = twoDigits(value, 0) * 100 + twoDigits(value, 2);
  const month = twoDigits(value, 5);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

/** The calendar date (and hour, when there is one) at the start of `value` exist. */
function realDateAndHour(value: string, hasHour: boolean): boolean {
  const day = twoDigits(value, 8);
  return (!hasHour || twoDigits(value, 11) < 24) && (day <= 28 || day <= daysInMonth(value));
}

/**
 * Epoch ms of a `YYYY-MM-DDTHH:MM:SS…Z` timestamp naming a real instant; NaN for any other string.
 * Date.parse already refuses month 13, day 00 and minute or second 60, but rolls hour 24 into the
 * next day and February 30th into March: those two are checked here (one pass per timestamp, as it
 * runs on every checkpoint file of every scan).
 */
export function instantOf(value: string): number {
  if (!ISO_UTC_SHAPE.test(value)) return NaN;
  const epoch = Date.parse(value);
  return realDateAndHour(value, true) ? epoch : NaN;
}

/** True for an ISO 8601 UTC timestamp ending in `Z` that names a real instant. */
export function isIsoUtc(value: unknown): value is string {
  return typeof value === "string" && !Number.isNaN(instantOf(value));
}

const DATE_PREFIX = /^\d{4}-\d{2}-\d{2}(T\d{2})?/;

/**
 * Epoch ms of a time a person typed (`--since`): any ISO 8601 date or date-time Date.parse reads,
 * offsets included, but NaN when its calendar date or hour does not exist.
 */
export function parseUserInstant(value: string): number {
  const prefix = DATE_PREFIX.exec(value);
  if (!prefix || !realDateAndHour(value, prefix[1] !== undefined)) return NaN;
  return Date.parse(value);
}

/** `2026-03-01T09:30:00.000Z` → `20260301T093000.000Z`: a time for a file name, sortable and legal in every file system. */
export function fileStamp(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/[-:]/g, "");
}
