// Workspaces for the CKPT_* check tests: a `.checkpoints/` folder with the given files (test/helpers/check-tester.ts runs the checks).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import type { Finding } from "../../../../src/domains/doctor/index.js";
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

type Severity = Finding["severity"];

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

/** The CKPT_* suites' clock, workspaces and family rules, for testCheck: each check declares its `severity`. */
export function checkpointCases(severity: Severity) {
  return {
    now: NOW,
    build: (make: (root: string) => CheckpointFixture) => ({ layout: new WorkspaceLayout(fixtureWorkspace(make)) }),
    // A checkpoint-family check: its remediation names the command that fixes it; its findings name the file.
    declared: { severity, id: /^CKPT_\d{3}_[A-Z_]+$/, remediation: /aop checkpoint/ },
    everyFinding: (finding: Finding) => expect(finding.refs[0]).toMatch(/^\.checkpoints\/.+\.checkpoint\.json$/),
  };
}
