import { describe, expect, it } from "vitest";
import { check } from "../../../../src/domains/doctor/checks/drift-008-index-state-inconsistency.js";
import { DriftFixture } from "../drift-fixtures.js";

describe(check.id, () => {
  it.each([
    ["no index", (f: DriftFixture) => f, []],
    ["a consistent index", (f: DriftFixture) => f.index({ active: ["a"], merged: ["b"] }).state("a").state("b", "merged"), []],
    ["a feature in two lists", (f: DriftFixture) => f.index({ active: ["a"], blocked: ["a"] }).state("a"), [/feature a is listed 2 times \(active, blocked\)/]],
    ["a feature without state.md", (f: DriftFixture) => f.index({ active: ["ghost"] }), [/feature ghost is in the index but \.aop\/features\/ghost\/state\.md does not exist/]],
    ["an unparseable index", (f: DriftFixture) => f.write(".aop/features/index.json", "{"), [/index\.json is not valid JSON/]],
    ["a status that disagrees with state.md (a set-status killed between its writes)", (f: DriftFixture) => f.index({ active: ["a"] }).state("a", "blocked"), [/^feature a is listed as active in the index but \.aop\/features\/a\/state\.md says blocked$/]],
    ["a traversal id in the index", (f: DriftFixture) => f.index({ active: ["../../etc"] }), [/invalid feature id '\.\.\/\.\.\/etc'/]],
  ] as const)("%s", async (_name, build, expected) => {
    const findings = await build(new DriftFixture()).run(check);
    expect(findings.map((f) => f.message)).toEqual(expected.map((re) => expect.stringMatching(re)));
    for (const f of findings) expect(f.severity).toBe("critical");
  });
});
