import { describe, expect, it } from "vitest";
import { tempWorkspace, writeFile } from "../helpers/tmp.js";
import { WorkspaceLayout } from "../../src/store/layout.js";
import { loadGates, loadGatesTolerant } from "../../src/config/gates-loader.js";
import { GATES_TEMPLATE } from "../../src/config/templates.js";

function withGates(yaml: string): WorkspaceLayout {
  const root = tempWorkspace();
  writeFile(root, "agentic/orchestrator/gates.yaml", yaml);
  return new WorkspaceLayout(root);
}

describe("gates.yaml loading", () => {
  it("loads the init template", async () => {
    const gates = await loadGates(withGates(GATES_TEMPLATE));
    expect(Object.keys(gates.profiles.default!.modes)).toEqual(["fast", "full"]);
  });

  it("refuses a shell string where argv is required", async () => {
    const result = await loadGatesTolerant(withGates("version: 1\nprofiles:\n  p:\n    modes:\n      fast:\n        - name: t\n          cmd: npm test\n"));
    expect(result.problems).toEqual([{ file: "agentic/orchestrator/gates.yaml", path: "profiles.p.modes.fast[0].cmd", message: "must be an array (got string 'npm test')" }]);
    expect(result.gates).toBeNull();
  });

  it("checks depends_on names", async () => {
    const result = await loadGatesTolerant(withGates("version: 1\nprofiles:\n  p:\n    modes:\n      m:\n        - name: a\n          cmd: [x]\n          depends_on: [ghost]\n"));
    expect(result.problems).toEqual([{ file: "agentic/orchestrator/gates.yaml", path: "profiles.p.modes.m[0].depends_on", message: "names unknown step 'ghost'" }]);
    expect(result.gates).toBeNull();
  });

  it("reports duplicate step names", async () => {
    const result = await loadGatesTolerant(withGates("version: 1\nprofiles:\n  p:\n    modes:\n      m:\n        - name: a\n          cmd: [x]\n        - name: a\n          cmd: [y]\n"));
    expect(result.problems).toEqual([{ file: "agentic/orchestrator/gates.yaml", path: "profiles.p.modes.m[1].name", message: "duplicates step name 'a'" }]);
    expect(result.gates).toBeNull();
  });

  it("reports every problem of a file, each once, in order", async () => {
    const yaml = [
      "version: 1",
      "default_profile: nope",
      "profiles:",
      "  p:",
      "    modes:",
      "      m:",
      "        - name: a",
      "          cmd: [x]",
      "          depends_on: [a, b]",
      "        - name: b",
      "          cmd: [y]",
      "        - name: b",
      "          cmd: [z]",
      "",
    ].join("\n");
    const result = await loadGatesTolerant(withGates(yaml));
    expect(result.problems.map((p) => [p.path, p.message])).toEqual([
      ["profiles.p.modes.m[0].depends_on", "a step cannot depend on itself"],
      ["profiles.p.modes.m[0].depends_on", "names 'b', which is declared later; list dependencies before the steps that need them"],
      ["profiles.p.modes.m[2].name", "duplicates step name 'b'"],
      ["default_profile", "names unknown profile 'nope'"],
    ]);
    expect(result.gates).toBeNull();
  });

  it("reports a missing file through loadGates with a hint", async () => {
    await expect(loadGates(new WorkspaceLayout(tempWorkspace()))).rejects.toThrow(/gates\.yaml: does not exist/);
  });
});
