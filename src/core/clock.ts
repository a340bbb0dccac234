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

/** ISO 8601 UTC with milliseconds and `Z`. */
export function isoUtc(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

export function nowIso(clock: Clock): string {
  return isoUtc(clock.now());
}
