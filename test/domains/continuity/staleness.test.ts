import { describe, expect, it } from "vitest";
import { FALLBACK_INFO_AGE_MS, FALLBACK_WARNING_AGE_MS, judgeStaleness, STALE_GRACE_MS } from "../../../src/domains/continuity/staleness.js";

const now = 1_000_000_000_000;
const H = 3_600_000;

describe("judgeStaleness", () => {
  it("stale when the newest transcript is newer than the state by more than the grace", () => {
    expect(judgeStaleness({ stateMtimeMs: now - 2 * H, transcriptMtimeMs: now - 0.5 * H, nowMs: now })).toEqual({ verdict: "stale", stateAgeMs: 2 * H, sessionAgeMs: 0.5 * H });
  });

  it("current when the transcript is older, or newer by no more than the grace", () => {
    expect(judgeStaleness({ stateMtimeMs: now - H, transcriptMtimeMs: now - 2 * H, nowMs: now }).verdict).toBe("current");
    expect(judgeStaleness({ stateMtimeMs: now - H, transcriptMtimeMs: now - H + STALE_GRACE_MS, nowMs: now }).verdict).toBe("current");
    expect(judgeStaleness({ stateMtimeMs: now - H, transcriptMtimeMs: now - H + STALE_GRACE_MS + 1, nowMs: now }).verdict).toBe("stale");
  });

  it("without a transcript: warning over 24 h, info over 4 h, fresh otherwise (bounds exclusive)", () => {
    expect(judgeStaleness({ stateMtimeMs: now - FALLBACK_WARNING_AGE_MS - 1, nowMs: now })).toMatchObject({ verdict: "old", severity: "warning" });
    expect(judgeStaleness({ stateMtimeMs: now - FALLBACK_WARNING_AGE_MS, nowMs: now })).toMatchObject({ verdict: "old", severity: "info" });
    expect(judgeStaleness({ stateMtimeMs: now - FALLBACK_INFO_AGE_MS - 1, nowMs: now })).toMatchObject({ verdict: "old", severity: "info" });
    expect(judgeStaleness({ stateMtimeMs: now - FALLBACK_INFO_AGE_MS, nowMs: now }).verdict).toBe("fresh");
  });

  it("a modification time in the future counts as age 0, not negative", () => {
    expect(judgeStaleness({ stateMtimeMs: now + H, nowMs: now })).toEqual({ verdict: "fresh", stateAgeMs: 0 });
  });
});
