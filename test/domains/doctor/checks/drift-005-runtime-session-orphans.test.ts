import { describe, expect, it } from "vitest";
import { check } from "../../../../src/domains/doctor/checks/drift-005-runtime-session-orphans.js";
import { DriftFixture } from "../drift-fixtures.js";

const held = { lease_expires_at: "2026-06-01T13:00:00.000Z" };

describe(check.id, () => {
  it.each([
    ["sessions on an active feature", (f: DriftFixture) => f.index({ active: ["a"] }).lease("default", { ...held, sessions: { a: { builder: "s1" } } }), []],
    ["sessions in a released lease", (f: DriftFixture) => f.index({ merged: ["a"] }).lease("default", { lease_expires_at: "1970-01-01T00:00:00.000Z", sessions: { a: { builder: "s1" } } }), []],
    ["a session on a merged feature", (f: DriftFixture) => f.index({ merged: ["a"] }).lease("default", { ...held, sessions: { a: { builder: "s1" } } }), [/maps sessions \(builder → s1\) to feature a, which is merged/]],
    ["a session on a feature not in the index", (f: DriftFixture) => f.index({}).lease("default", { ...held, sessions: { ghost: { qa: "s2" } } }), [/feature ghost, which is not in the index/]],
  ] as const)("%s", async (_name, build, expected) => {
    const findings = await build(new DriftFixture()).run(check);
    expect(findings.map((f) => f.message)).toEqual(expected.map((re) => expect.stringMatching(re)));
  });
});
