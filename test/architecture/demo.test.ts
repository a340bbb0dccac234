// `npm run demo` (the quick start's first command) runs to its end on the built CLI and shows each part
// it names, the two-machine handoff over a bare git remote included.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/paths.js";

describe("npm run demo", () => {
  it("walks through every part and hands work from one clone to another", () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
    for (const key of ["AOP_ROOT", "AOP_RUN_ID", "AOP_SESSION_ID", "AOP_ACTOR"]) delete env[key];
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, "scripts", "demo.mjs")], { cwd: REPO_ROOT, env, encoding: "utf8", timeout: 300_000 });
    expect(r.status, r.stderr + r.stdout.slice(-2000)).toBe(0);
    expect(r.stdout).toMatch(/## Time travel[^\n]*\n\$ aop state --run-id run:demo --at 4 --diff 0\nstate of run:demo after step 4/);
    expect(r.stdout).toMatch(/\$ aop search feat_login --result error\n[^\n]+ERROR|\$ aop search feat_login --result error\n[^\n]+error/);
    expect(r.stdout).toMatch(/ci-runner \$ aop sync pull\npulled ada@laptop \([0-9a-f]{8}\)/);
    expect(r.stdout).toMatch(/ada@laptop\/run:laptop +ada@laptop +2 +0/);
    expect(r.stdout).toMatch(/✓ ada@laptop\/feat_logout +valid/);
    expect(r.stdout).toMatch(/is newer than this workspace's own work[^\n]*\n- Next action: Add the logout endpoint and its test/);
    expect(r.stdout).toMatch(/demo finished; workspace removed/);
  }, 300_000);
});
