import { describe, expect, it } from "vitest";
import type { Checkpoint } from "../../../src/domains/checkpoints/checkpoint-types.js";
import { isGateStep, pickNext, rankCheckpoints } from "../../../src/domains/checkpoints/ranking.js";
import { minimalCheckpoint } from "./fixture.js";

function cp(skill: string, overrides: Record<string, unknown>): Checkpoint {
  return minimalCheckpoint(skill, overrides) as unknown as Checkpoint;
}

const decision = { blockers: [{ id: "db", description: "Pick Postgres or MySQL", needs: "user_decision", proposed_resolution: "Postgres" }] };
const at = (hour: number) => `2026-03-01T${String(hour).padStart(2, "0")}:00:00.000Z`;

describe("next: the ranking of docs/checkpoints.md", () => {
  // Each row outranks every row of a lower tier, although the lower rows were updated later.
  const table: [string, Checkpoint, number][] = [
    ["a blocker needing a user decision", cp("asks", { ...decision, status: "complete", next_actions: [], updated_at: at(1) }), 1],
    ["failed", cp("failed", { status: "failed", updated_at: at(2) }), 2],
    ["blocked", cp("blocked", { status: "blocked", blockers: [{ id: "b", description: "CI is down", needs: "external_dep" }], next_actions: [], updated_at: at(3) }), 2],
    ["in progress at a gate step", cp("gated", { step: "qa-gate", updated_at: at(4) }), 3],
    ["in progress", cp("working", { updated_at: at(5) }), 4],
    ["complete with queued actions", cp("done-ish", { status: "complete", next_actions: ["Write release notes"], updated_at: at(6) }), 5],
  ];

  it("orders the tiers: decision > failed/blocked > gate > in progress > complete with queued actions", () => {
    const shuffled = [table[4]![1], table[0]![1], table[5]![1], table[2]![1], table[3]![1], table[1]![1]];
    const ranked = rankCheckpoints(shuffled).map((p) => p.skill);
    // failed and blocked share a tier: the newer update (blocked, 03:00) comes first
    expect(ranked).toEqual(["asks", "blocked", "failed", "gated", "working", "done-ish"]);
  });

  it.each(table)("%s outranks every lower tier", (_name, checkpoint, tier) => {
    expect(pickNext([checkpoint])!.tier).toBe(tier);
    for (const [, lower, lowerTier] of table) {
      if (lowerTier > tier) expect(pickNext([lower, checkpoint])!.skill).toBe(checkpoint.skill);
    }
  });

  it("ties go to the newest updated_at, then to the skill name", () => {
    const older = cp("zeta", { updated_at: at(7) });
    const newer = cp("alpha", { updated_at: at(8) });
    const sameTime = cp("beta", { updated_at: at(8) });
    expect(rankCheckpoints([older, sameTime, newer]).map((p) => p.skill)).toEqual(["alpha", "beta", "zeta"]);
  });

  it("says why and what: the decision blocker's question with its proposal", () => {
    expect(pickNext([table[0]![1]])).toMatchObject({ skill: "asks", status: "complete", why: "blocker db needs a user decision", action: "Ask the user to decide: Pick Postgres or MySQL (proposed: Postgres)" });
  });

  it("failed or blocked without queued actions points at the blocker, else at the summary", () => {
    expect(pickNext([table[2]![1]])!.action).toBe("Resolve blocker b: CI is down");
    expect(pickNext([cp("f", { status: "failed", next_actions: [] })])!.action).toBe("Find out why f is failed: Handlers half written.");
  });

  it("the action text of an object action is its text", () => {
    expect(pickNext([cp("w", { next_actions: [{ text: "Run the suite", done_when: "npm test" }] })])!.action).toBe("Run the suite");
  });

  it("complete with nothing queued asks for nothing", () => {
    expect(pickNext([cp("idle", { status: "complete", next_actions: [] })])).toBeNull();
    expect(pickNext([])).toBeNull();
  });

  it.each([
    ["qa-gate", true],
    ["await-approval", true],
    ["approve release", true],
    ["sign-off", true],
    ["gates", true],
    ["write handlers", false],
    ["navigate", false],
  ])("isGateStep(%s) is %s", (step, expected) => {
    expect(isGateStep(step)).toBe(expected);
  });
});
