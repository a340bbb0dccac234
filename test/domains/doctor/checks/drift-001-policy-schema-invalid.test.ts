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

  it("the upstream orchestrator's config/agentic/orchestrator/policy.yaml is not read: one info finding while aop has none of its own", async () => {
    const upstream = (f: DriftFixture) => f.write("config/agentic/orchestrator/policy.yaml", "version: 1\nupstream_only_key: {}\n");
    expect((await upstream(new DriftFixture()).run(check)).map((f) => [f.severity, f.message])).toEqual([
      ["info", "config/agentic/orchestrator/policy.yaml is the upstream orchestrator's configuration and is not read by aop; without agentic/orchestrator/policy.yaml aop runs on its bundled policy defaults"],
    ]);
    expect(await upstream(new DriftFixture()).write("agentic/orchestrator/policy.yaml", "version: 1\n").run(check)).toEqual([]);
  });
});
