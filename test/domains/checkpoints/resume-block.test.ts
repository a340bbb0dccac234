import { describe, expect, it } from "vitest";
import type { Checkpoint } from "../../../src/domains/checkpoints/checkpoint-types.js";
import { buildResumeBlock } from "../../../src/domains/checkpoints/resume-block.js";
import { staleness } from "../../../src/domains/checkpoints/staleness.js";
import { exampleCheckpoint, minimalCheckpoint } from "./fixture.js";

const STALE_DAYS = { in_progress: 7, blocked: 3, complete: 14 };
const DAY = 86_400_000;
const UPDATED = Date.parse("2026-03-01T09:00:00.000Z");

function cp(overrides: Record<string, unknown> = {}): Checkpoint {
  return minimalCheckpoint("builder", overrides) as unknown as Checkpoint;
}

describe("staleness by status (policy checkpoints.stale_days)", () => {
  it.each([
    ["in_progress", 7, true],
    ["in_progress", 6.9, false],
    ["blocked", 3.1, true],
    ["blocked", 3, false],
    ["complete", 14.5, true],
    ["complete", 13, false],
    ["failed", 400, false],
  ] as const)("%s for %s days → stale %s", (status, days, stale) => {
    const at = UPDATED + days * DAY + (days === 7 ? 1 : 0);
    expect(staleness({ status, updated_at: "2026-03-01T09:00:00.000Z" }, at, STALE_DAYS).stale).toBe(stale);
  });

  it("uses the thresholds it is given", () => {
    expect(staleness({ status: "in_progress", updated_at: "2026-03-01T09:00:00.000Z" }, UPDATED + 2 * DAY, { ...STALE_DAYS, in_progress: 1 })).toMatchObject({ stale: true, threshold_days: 1 });
  });
});

describe("resume: continue or ask, and why", () => {
  it("in progress and fresh → continue with the next action", () => {
    const block = buildResumeBlock(cp(), UPDATED + 2 * 3_600_000, STALE_DAYS);
    expect(block).toMatchObject({ decision: "continue", stale: false, next_action: { text: "Write the refund handler", done_when: null } });
    expect(block.reason).toBe("in progress and updated 2h ago (not stale): continue with the next action");
  });

  it("in progress but stale → ask, naming the age and the threshold", () => {
    const block = buildResumeBlock(cp(), UPDATED + 9 * DAY, STALE_DAYS);
    expect(block).toMatchObject({ decision: "ask", stale: true, stale_threshold_days: 7 });
    expect(block.reason).toBe("last updated 9d ago, past the 7-day threshold for in_progress: confirm the plan still holds");
  });

  it("a blocker needing a user decision → ask first, even when fresh", () => {
    const block = buildResumeBlock(exampleCheckpoint(), Date.parse("2026-03-01T10:00:00.000Z"), STALE_DAYS);
    expect(block.decision).toBe("ask");
    expect(block.reason).toBe("blocker queue-choice needs the user's decision: ask before doing anything else");
    expect(block.decisions_needed.map((b) => b.id)).toEqual(["queue-choice"]);
  });

  it("blocked → ask whether the blocker is resolved", () => {
    const block = buildResumeBlock(cp({ status: "blocked", blockers: [{ id: "ci", description: "CI down", needs: "external_dep" }] }), UPDATED + 3_600_000, STALE_DAYS);
    expect(block).toMatchObject({ decision: "ask", reason: "the skill is blocked (ci): ask the user whether the blocker is resolved" });
    expect(block.other_blockers.map((b) => b.id)).toEqual(["ci"]);
  });

  it("failed → ask how to proceed", () => {
    const block = buildResumeBlock(cp({ status: "failed" }), UPDATED + 3_600_000, STALE_DAYS);
    expect(block).toMatchObject({ decision: "ask", reason: "the last session ended in failure: ask the user how to proceed before retrying" });
  });

  it("complete → ask before starting new work", () => {
    const block = buildResumeBlock(cp({ status: "complete", next_actions: ["Tag the release"] }), UPDATED + 3_600_000, STALE_DAYS);
    expect(block).toMatchObject({ decision: "ask", reason: "the skill is complete with 1 queued action: ask before starting new work" });
  });

  it("carries everything a new session orients by", () => {
    const block = buildResumeBlock(exampleCheckpoint(), Date.parse("2026-03-01T10:00:00.000Z"), STALE_DAYS);
    expect(block).toMatchObject({
      skill: "architect",
      project: "shop-api",
      status: "in_progress",
      progress: { done: 2, total: 5 },
      next_action: { text: "Finish the error model of the orders contract", done_when: "grep -q ErrorResponse docs/api/orders.yaml" },
      queued_actions: 3,
      age_ms: 30 * 60_000,
    });
    expect(block.key_decisions).toHaveLength(3);
    expect(block.recently_done[0]!.action).toBe("Draft the orders endpoints");
    expect(block).not.toHaveProperty("skill_state");
  });
});
