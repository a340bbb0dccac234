import { describe, expect, it } from "vitest";
import { check } from "../../../../src/domains/doctor/checks/drift-002-gates-schema-invalid.js";
import { GATES_TEMPLATE } from "../../../../src/config/templates.js";
import { DriftFixture } from "../drift-fixtures.js";

describe(check.id, () => {
  it.each([
    ["no gates.yaml", (f: DriftFixture) => f, []],
    ["the init template", (f: DriftFixture) => f.write("agentic/orchestrator/gates.yaml", GATES_TEMPLATE), []],
    ["unparseable YAML", (f: DriftFixture) => f.write("agentic/orchestrator/gates.yaml", "profiles: {\n"), [/is not valid YAML/]],
    ["a shell string instead of argv", (f: DriftFixture) => f.write("agentic/orchestrator/gates.yaml", "version: 1\nprofiles:\n  p:\n    modes:\n      m:\n        - name: t\n          cmd: npm test\n"), [/cmd must be an array/]],
    ["an unknown dependency", (f: DriftFixture) => f.write("agentic/orchestrator/gates.yaml", "version: 1\nprofiles:\n  p:\n    modes:\n      m:\n        - name: t\n          cmd: [x]\n          depends_on: [nope]\n"), [/names unknown step 'nope'/]],
  ] as const)("%s", async (_name, build, expected) => {
    const findings = await build(new DriftFixture()).run(check);
    expect(findings.map((f) => f.message)).toEqual(expected.map((re) => expect.stringMatching(re)));
    for (const f of findings) expect(f.severity).toBe("critical");
  });

  it("the upstream orchestrator's config/agentic/orchestrator/gates.yaml is not read: one info finding while aop has none of its own", async () => {
    const upstream = (f: DriftFixture) => f.write("config/agentic/orchestrator/gates.yaml", "version: 1\nupstream_only_key: {}\n");
    expect((await upstream(new DriftFixture()).run(check)).map((f) => [f.severity, f.message])).toEqual([
      ["info", "config/agentic/orchestrator/gates.yaml is the upstream orchestrator's configuration and is not read by aop; without agentic/orchestrator/gates.yaml aop has no gate profiles to run"],
    ]);
    expect(await upstream(new DriftFixture()).write("agentic/orchestrator/gates.yaml", "version: 1\nprofiles:\n  default:\n    modes:\n      fast:\n        - name: t\n          cmd: [\"true\"]\n").run(check)).toEqual([]);
  });
});
