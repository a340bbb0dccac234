// Workspaces for doctor check tests: a few lines describe the files, times are relative to NOW,
// and every run gets a fake home so no real ~/.openclaw or ~/.claude is ever read.
import fs from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { fixedClock } from "../../../src/core/clock.js";
import { policyDefaults } from "../../../src/config/policy-defaults.js";
import { createDoctorContext, toFinding, type DoctorCheck, type Finding } from "../../../src/domains/doctor/check-types.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { tempDir, writeFile } from "../../helpers/tmp.js";

export const NOW = Date.parse("2026-06-01T12:00:00.000Z");
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

export const SECTION_NAMES = ["Objective", "Current Step", "Key Decisions", "Next Action", "Blockers", "Unsurfaced Results"] as const;
export type SectionName = (typeof SECTION_NAMES)[number];

const HEALTHY_VALUES: Record<SectionName, string> = {
  Objective: "Build the user authentication module",
  "Current Step": "Completed JWT token generation, starting the refresh endpoint",
  "Key Decisions": "- Using RS256 for token signing (user approved)\n- Token expiry: 15 minutes access, 7 days refresh",
  "Next Action": "Implement POST /auth/refresh endpoint",
  Blockers: "None",
  "Unsurfaced Results": "None",
};

/**
 * A CURRENT_STATE.md in the protocol's shape. `sections` overrides a section's body; `null` leaves
 * the section out. `after` is appended at the end (e.g. a `---` and notes).
 */
export function stateMarkdown(sections: Partial<Record<SectionName, string | null>> = {}, after = ""): string {
  const parts = ["# Current State", "> Last updated: 2026-06-01T11:55:00Z", ""];
  for (const name of SECTION_NAMES) {
    const body = name in sections ? sections[name] : HEALTHY_VALUES[name];
    if (body === null || body === undefined) continue;
    parts.push(`## ${name}`, body, "");
  }
  return parts.join("\n") + after;
}

export interface WorkspaceSpec {
  /** CURRENT_STATE.md contents; null: no file. Default: a healthy state. */
  state?: string | Uint8Array | null;
  /** A folder where the state file should be. */
  stateIsDirectory?: boolean;
  /** How long before NOW the state file was last modified. Default: 5 minutes. */
  stateAgeMs?: number;
  /** memory/session_archive/<name> → contents. */
  archives?: Record<string, string>;
  tasksMd?: string;
  /** openspec/changes/<id>/<file> → contents; an empty record makes just the folder. */
  openspec?: Record<string, Record<string, string>>;
  /** Transcripts in the fake home: OpenClaw agent sessions and Claude Code project files, with ages. */
  openclawSessions?: { agent: string; file: string; ageMs: number }[];
  claudeSessions?: { file: string; ageMs: number; slug?: "slash" | "alnum" }[];
}

export interface Workspace {
  root: string;
  home: string;
  layout: WorkspaceLayout;
}

export function setAge(file: string, ageMs: number): void {
  const at = new Date(NOW - ageMs);
  fs.utimesSync(file, at, at);
}

export function makeWorkspace(spec: WorkspaceSpec = {}): Workspace {
  const base = tempDir("aop-cont-");
  const root = path.join(base, "work.space_1"); // a dot and an underscore: Claude Code's folder naming differs
  const home = path.join(base, "home");
  fs.mkdirSync(root, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  const state = spec.state === undefined ? stateMarkdown() : spec.state;
  if (spec.stateIsDirectory) fs.mkdirSync(path.join(root, "memory", "CURRENT_STATE.md"), { recursive: true });
  else if (state !== null) setAge(writeFile(root, "memory/CURRENT_STATE.md", state), spec.stateAgeMs ?? 5 * MINUTE);
  for (const [name, text] of Object.entries(spec.archives ?? {})) writeFile(root, `memory/session_archive/${name}`, text);
  if (spec.tasksMd !== undefined) writeFile(root, "tasks.md", spec.tasksMd);
  for (const [id, files] of Object.entries(spec.openspec ?? {})) {
    fs.mkdirSync(path.join(root, "openspec", "changes", id), { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFile(root, `openspec/changes/${id}/${file}`, text);
  }
  for (const s of spec.openclawSessions ?? []) setAge(writeFile(home, `.openclaw/agents/${s.agent}/sessions/${s.file}`, '{"type":"message"}\n'), s.ageMs);
  for (const s of spec.claudeSessions ?? []) {
    const slug = s.slug === "slash" ? root.replace(/\//g, "-") : root.replace(/[^A-Za-z0-9]/g, "-");
    setAge(writeFile(home, `.claude/projects/${slug}/${s.file}`, '{"type":"user"}\n'), s.ageMs);
  }
  return { root, home, layout: new WorkspaceLayout(root) };
}

/** Environment of a CLI run: the workspace's fake home, no real OpenClaw/Claude state, the clock at NOW. */
export function cliEnv(ws: { home: string }, extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { HOME: ws.home, OPENCLAW_STATE_DIR: undefined, CLAUDE_CONFIG_DIR: undefined, OPENCLAW_WORKSPACE_DIR: undefined, AOP_NOW: new Date(NOW).toISOString(), ...extra };
}

export interface CheckOutcome {
  findings: Finding[];
  okMessage: string | undefined;
}

/** Runs one check on a workspace the way the engine does, with the fake home and a clock at NOW. */
export async function runCheck(check: DoctorCheck, ws: Workspace, options: { transcriptsDir?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CheckOutcome> {
  const ctx = createDoctorContext({
    layout: ws.layout,
    clock: fixedClock(NOW),
    policy: policyDefaults(),
    policyProblems: [],
    env: options.env ?? {},
    homeDir: ws.home,
    ...(options.transcriptsDir === undefined ? {} : { transcriptsDir: options.transcriptsDir }),
  });
  const result = await check.run(ctx);
  return { findings: result.findings.map((d) => toFinding(check, d)), okMessage: result.okMessage };
}

/** A table row: a named workspace and what the check must say about it. */
export interface CheckCase {
  name: string;
  spec: WorkspaceSpec;
  /** Expected findings as `[severity, message pattern]`, in order; [] for a healthy workspace. */
  findings: [Finding["severity"], RegExp][];
  /** The OK line, whole (anchored pattern); null when the check must stay silent. Required for a healthy case. */
  ok?: RegExp | null;
  transcriptsDir?: (ws: Workspace) => string;
}

/** Builds the case's workspace, runs the check and asserts its findings and OK line. */
export async function expectCase(check: DoctorCheck, c: CheckCase): Promise<void> {
  const ws = makeWorkspace(c.spec);
  const outcome = await runCheck(check, ws, c.transcriptsDir ? { transcriptsDir: c.transcriptsDir(ws) } : {});
  expect(outcome.findings.map((f) => [f.severity, f.message])).toEqual(c.findings.map(([severity, pattern]) => [severity, expect.stringMatching(pattern)]));
  for (const finding of outcome.findings) {
    expect(finding.id).toBe(check.id);
    expect(finding.remediation.length).toBeGreaterThan(20);
  }
  if (c.findings.length === 0) {
    // A healthy case says what the check reports when all is well: an OK line, or silence.
    if (c.ok === undefined) throw new Error(`healthy case '${c.name}' must name its OK line (or null for silence)`);
    if (c.ok === null) expect(outcome.okMessage).toBeUndefined();
    else {
      expect(c.ok.source.startsWith("^") && c.ok.source.endsWith("$"), `'${c.name}': anchor the OK pattern`).toBe(true);
      expect(outcome.okMessage).toMatch(c.ok);
    }
  }
}
