import { describe, expect, it } from "vitest";
import type { GateStep } from "../../../src/config/gates-types.js";
import { planWaves, skipReason, type StepOutcome } from "../../../src/domains/gates/wave-plan.js";

const step = (name: string, extra: Partial<GateStep> = {}): GateStep => ({ name, cmd: ["true"], ...extra });
const names = (waves: GateStep[][]) => waves.map((w) => w.map((s) => s.name));

describe("planWaves", () => {
  it("runs plain steps one per wave, in declared order", () => {
    expect(names(planWaves([step("a"), step("b"), step("c")]).waves)).toEqual([["a"], ["b"], ["c"]]);
  });

  it("puts consecutive steps of one parallel_group in one wave", () => {
    const plan = planWaves([step("lint", { parallel_group: "checks" }), step("types", { parallel_group: "checks" }), step("tests", { depends_on: ["lint", "types"] })]);
    expect(names(plan.waves)).toEqual([["lint", "types"], ["tests"]]);
    expect(plan.waveOf.get("types")).toBe(0);
  });

  it("starts a new wave when the group changes or is interrupted by a plain step", () => {
    const plan = planWaves([step("a", { parallel_group: "g" }), step("b", { parallel_group: "h" }), step("c"), step("d", { parallel_group: "g" })]);
    expect(names(plan.waves)).toEqual([["a"], ["b"], ["c"], ["d"]]);
  });

  it("splits a group when a member depends on another member", () => {
    const plan = planWaves([step("a", { parallel_group: "g" }), step("b", { parallel_group: "g", depends_on: ["a"] }), step("c", { parallel_group: "g" })]);
    expect(names(plan.waves)).toEqual([["a"], ["b", "c"]]);
  });

  it("refuses duplicate names and dependencies not declared earlier", () => {
    expect(() => planWaves([step("a"), step("a")])).toThrow(expect.objectContaining({ code: "gate_step_invalid" }));
    expect(() => planWaves([step("a", { depends_on: ["b"] }), step("b")])).toThrow(/not declared before it/);
    expect(() => planWaves([step("a", { depends_on: ["zzz"] })])).toThrow(expect.objectContaining({ code: "gate_step_invalid" }));
  });
});

describe("skipReason", () => {
  const steps = [
    step("lint", { parallel_group: "checks" }),
    step("types", { parallel_group: "checks" }),
    step("unit", { depends_on: ["types"] }),
    step("e2e", { depends_on: ["unit"] }),
    step("package"),
  ];
  const plan = planWaves(steps);
  const decide = (name: string, outcomes: Record<string, StepOutcome>) => skipReason(steps.find((s) => s.name === name)!, steps, plan, new Map(Object.entries(outcomes)));

  it.each([
    ["first wave always runs", "lint", {}, null],
    ["a dependency that passed lets the step run even if a sibling failed", "unit", { lint: "fail", types: "pass" }, null],
    ["a failed dependency skips", "unit", { lint: "pass", types: "fail" }, "dependency 'types' failed"],
    ["a skipped dependency skips", "e2e", { lint: "pass", types: "fail", unit: "skipped" }, "dependency 'unit' was skipped"],
    ["a plain step needs every earlier step to pass", "package", { lint: "fail", types: "pass", unit: "pass", e2e: "pass" }, "an earlier step failed ('lint')"],
    ["a plain step after a clean run runs", "package", { lint: "pass", types: "pass", unit: "pass", e2e: "pass" }, null],
  ] as const)("%s", (_title, name, outcomes, expected) => {
    expect(decide(name, outcomes as Record<string, StepOutcome>)).toBe(expected);
  });

  it("a plain sequence stops at its first failure", () => {
    const seq = [step("a"), step("b"), step("c")];
    const p = planWaves(seq);
    const outcomes = new Map<string, StepOutcome>([["a", "fail"]]);
    expect(skipReason(seq[1]!, seq, p, outcomes)).toBe("an earlier step failed ('a')");
    outcomes.set("b", "skipped");
    expect(skipReason(seq[2]!, seq, p, outcomes)).toBe("an earlier step failed ('a')");
  });
});
