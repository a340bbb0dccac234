import { describe, expect, it } from "vitest";
import { check } from "../../../../src/domains/doctor/checks/drift-001-policy-schema-invalid.js";
import { DriftFixture } from "../drift-fixtures.js";

describe(check.id, () => {
  it.each([
    ["no policy.yaml", (f: DriftFixture) => f, []],
    ["a valid policy", (f: DriftFixture) => f.write("agentic/orchestrator/policy.yaml", "version: 1\nlocks:\n  lease_ttl_seconds: 60\n"), []],
    ["unparseable YAML", (f: DriftFixture) => f.write("agentic/orchestrator/policy.yaml", "locks: [\n"), [/is not valid YAML at line/]],
    ["a wrong type", (f: DriftFixture) => f.write("agentic/orchestrator/policy.yaml", "locks:\n  lease_ttl_seconds: soon\n"), [/locks\.lease_ttl_seconds must be an integer/]],
    ["an unknown key", (f: DriftFixture) => f.write("agentic/orchestrator/policy.yaml", "lockz: {}\n"), [/lockz is not a known key/]],
  ] as const)("%s", async (_name, build, expected) => {
    const findings = await build(new DriftFixture()).run(check);
    expect(findings.map((f) => f.message)).toEqual(expected.map((re) => expect.stringMatching(re)));
    for (const f of findings) expect(f.severity).toBe("critical");
  });
});
