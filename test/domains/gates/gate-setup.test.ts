import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { GatesConfig } from "../../../src/config/gates-types.js";
import { resolveGateMode, resolveStepCwds, stepEnvironment } from "../../../src/domains/gates/gate-setup.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";

const gates = (profiles: GatesConfig["profiles"], default_profile?: string): GatesConfig => ({ version: 1, profiles, ...(default_profile ? { default_profile } : {}) });
const modes = { fast: [{ name: "a", cmd: ["true"] }] };

describe("resolveGateMode", () => {
  it("uses default_profile, else the only profile, else one named default", () => {
    expect(resolveGateMode(gates({ ci: { modes }, dev: { modes } }, "dev"), { mode: "fast" }).profile).toBe("dev");
    expect(resolveGateMode(gates({ ci: { modes } }), { mode: "fast" }).profile).toBe("ci");
    expect(resolveGateMode(gates({ ci: { modes }, default: { modes } }), { mode: "fast" }).profile).toBe("default");
  });

  it("asks for --profile when it cannot choose", () => {
    expect(() => resolveGateMode(gates({ ci: { modes }, dev: { modes } }), { mode: "fast" })).toThrow(expect.objectContaining({ code: "gate_profile_not_found", hint: expect.stringMatching(/--profile/) }));
  });

  it("names the known profiles and modes when one is unknown", () => {
    expect(() => resolveGateMode(gates({ ci: { modes } }), { profile: "nope", mode: "fast" })).toThrow(expect.objectContaining({ code: "gate_profile_not_found", message: expect.stringMatching(/profiles: ci/) }));
    expect(() => resolveGateMode(gates({ ci: { modes } }), { mode: "slow" })).toThrow(expect.objectContaining({ code: "gate_mode_not_found", message: expect.stringMatching(/modes: fast/) }));
  });
});

describe("stepEnvironment", () => {
  it("passes only allow-listed variables, then the step's own", () => {
    const env = stepEnvironment(["PATH", "HOME", "MISSING"], { PATH: "/bin", HOME: "/h", SECRET: "x" }, { HOME: "/override", EXTRA: "1" });
    expect(env).toEqual({ PATH: "/bin", HOME: "/override", EXTRA: "1" });
  });
});

describe("resolveStepCwds", () => {
  it("resolves relative to the workspace root and refuses anything outside it", () => {
    const root = tempWorkspace();
    fs.mkdirSync(path.join(root, "pkg"));
    const layout = new WorkspaceLayout(root);
    expect(resolveStepCwds(layout, [{ name: "a", cmd: ["true"], cwd: "pkg" }]).get("a")).toBe(path.join(root, "pkg"));
    expect(resolveStepCwds(layout, [{ name: "a", cmd: ["true"] }]).get("a")).toBe(root);
    for (const cwd of ["..", "../elsewhere", "/etc", "pkg/../../x"]) {
      expect(() => resolveStepCwds(layout, [{ name: "a", cmd: ["true"], cwd }]), cwd).toThrow(expect.objectContaining({ code: "gate_step_invalid" }));
    }
  });

  it("refuses a symlink inside the workspace that leads outside it", () => {
    const root = tempWorkspace();
    fs.symlinkSync(tempDir(), path.join(root, "escape"));
    expect(() => resolveStepCwds(new WorkspaceLayout(root), [{ name: "a", cmd: ["true"], cwd: "escape" }])).toThrow(expect.objectContaining({ code: "gate_step_invalid" }));
  });
});
