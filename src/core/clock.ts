// Injectable time source: everything that stamps or compares times takes a Clock.

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Milliseconds from an arbitrary origin, for durations. Not `performance.now()`: touching the global
 * `performance` loads Node's perf_hooks modules, a measurable part of a short command's start.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

export function fixedClock(start: number | string | Date): Clock & { set(t: number | string | Date): void; advance(ms: number): void } {
  let current = toEpochMs(start);
  return {
    now: () => current,
    set: (t) => {
      current = toEpochMs(t);
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

/** The CLI honours AOP_NOW (an ISO timestamp) so black-box tests can pin time. */
export function clockFromEnv(env: NodeJS.ProcessEnv = process.env): Clock {
  const pinned = env.AOP_NOW;
  if (pinned && !Number.isNaN(Date.parse(pinned))) {
    const at = Date.parse(pinned);
    return { now: () => at };
  }
  return systemClock;
}

function toEpochMs(t: number | string | Date): number {
  if (typeof t === "number") return t;
  if (typeof t === "string") return Date.parse(t);
  return t.getTime();
}

/** The last millisecond of 9999-12-31: past it (and before 1970) Date.prototype.toISOString formats. */
const LAST_FOUR_DIGIT_YEAR_MS = 253_402_300_799_999;

const pad = (n: number, width: number): string => String(n).padStart(width, "0");

/**
 * ISO 8601 UTC with milliseconds and `Z`: what `new Date(epochMs).toISOString()` gives. Computed for
 * 1970–9999, because a process's first Date formatting costs ~0.5 ms (V8 sets up its date cache), which
 * the hook pays after every tool call of the agent (docs/performance.md). Days to a civil date: the
 * proleptic Gregorian calendar in eras of 400 years (as in H. Hinnant's `civil_from_days`).
 */
export function isoUtc(epochMs: number): string {
  if (!(epochMs >= 0 && epochMs <= LAST_FOUR_DIGIT_YEAR_MS)) return new Date(epochMs).toISOString();
  const whole = Math.trunc(epochMs);
  const days = Math.floor(whole / 86_400_000);
  const inDay = whole - days * 86_400_000;
  const z = days + 719_468; // days since 0000-03-01
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153); // 0 = March
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = era * 400 + yearOfEra + (month <= 2 ? 1 : 0);
  const hours = Math.floor(inDay / 3_600_000);
  const minutes = Math.floor(inDay / 60_000) % 60;
  const seconds = Math.floor(inDay / 1000) % 60;
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(inDay % 1000, 3)}Z`;
}

export function nowIso(clock: Clock): string {
  return isoUtc(clock.now());
}
