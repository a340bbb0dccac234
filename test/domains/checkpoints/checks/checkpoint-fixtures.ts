// Workspaces for the CKPT_* check tests: a `.checkpoints/` folder with the given files, and a doctor context.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { policyDefaults } from "../../../../src/config/policy-loader.js";
import { fixedClock } from "../../../../src/core/clock.js";
import { createDoctorContext, type CheckResult, type DoctorCheck, type DoctorContext } from "../../../../src/domains/doctor/check-types.js";
import { WorkspaceLayout } from "../../../../src/store/layout.js";
import { checkpointWorkspace, minimalCheckpoint } from "../fixture.js";

export const NOW = "2026-03-01T12:00:00.000Z";

export interface CheckpointFixture {
  /** `.checkpoints/<name>.checkpoint.json` contents (objects are JSON-encoded). */
  files?: Record<string, unknown>;
  /** The workspace is a git repository root (default false, so project_dir is judged). */
  git?: boolean;
  /** Files created in the workspace, relative paths. */
  present?: string[];
  /** Commits made before the check runs (messages), in a real git repository. */
  commits?: string[];
}

/** A valid checkpoint whose project_dir is the workspace itself (so it exists). */
export function healthyCheckpoint(skill: string, root: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return minimalCheckpoint(skill, { project_dir: root, updated_at: "2026-03-01T11:00:00.000Z", created_at: "2026-03-01T10:00:00.000Z", ...overrides });
}

export function fixtureWorkspace(build: (root: string) => CheckpointFixture): string {
  const root = checkpointWorkspace({}, { git: false });
  const fixture = build(root);
  for (const [name, content] of Object.entries(fixture.files ?? {})) {
    fs.writeFileSync(path.join(root, ".checkpoints", `${name}.checkpoint.json`), typeof content === "string" ? content : JSON.stringify(content, null, 2));
  }
  for (const rel of fixture.present ?? []) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), "x");
  }
  if (fixture.git || fixture.commits) {
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", ...args], { cwd: root, stdio: "ignore" });
    git("init", "-q");
    for (const message of fixture.commits ?? []) git("commit", "-q", "--allow-empty", "-m", message);
  }
  return root;
}

export function doctorContext(root: string): DoctorContext {
  return createDoctorContext({
    layout: new WorkspaceLayout(root),
    clock: fixedClock(NOW),
    policy: policyDefaults(),
    policyProblems: [],
    env: {},
    homeDir: root,
  });
}

export async function runCheck(check: DoctorCheck, root: string): Promise<CheckResult> {
  return check.run(doctorContext(root));
}

/** A healthy workspace and the whole OK line the check must give for it. */
export type HealthyCase = [name: string, build: (root: string) => CheckpointFixture, ok: string];
/** A broken workspace and the finding messages it must produce, in order. */
export type BrokenCase = [name: string, build: (root: string) => CheckpointFixture, messages: RegExp[]];

/** The specification of one CKPT check: its metadata, then a table of healthy and broken workspaces. */
export function describeCheckpointCheck(check: DoctorCheck, expected: { severity: DoctorCheck["severity"]; healthy: HealthyCase[]; broken: BrokenCase[] }): void {
  describe(check.id, () => {
    it("is a checkpoint-family check whose remediation names the command that fixes it", () => {
      expect(check).toMatchObject({ severity: expected.severity });
      expect(check.id).toMatch(/^CKPT_\d{3}_[A-Z_]+$/);
      expect(check.remediation).toMatch(/aop checkpoint/);
    });

    it.each(expected.healthy)("healthy: %s", async (_name, build, ok) => {
      const result = await runCheck(check, fixtureWorkspace(build));
      expect(result.findings).toEqual([]);
      expect(result.okMessage).toBe(ok);
    });

    it.each(expected.broken)("broken: %s", async (_name, build, messages) => {
      const result = await runCheck(check, fixtureWorkspace(build));
      expect(result.findings.map((f) => f.message)).toHaveLength(messages.length);
      result.findings.forEach((f, i) => {
        expect(f.message).toMatch(messages[i]!);
        expect(f.refs![0]).toMatch(/^\.checkpoints\/.+\.checkpoint\.json$/);
      });
    });
  });
}
