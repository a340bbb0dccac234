// Workspaces for the continuity checks' tests and the continuity doctor's: a few lines describe the
// files, times are relative to NOW, and every run gets a fake home so no real ~/.openclaw or ~/.claude
// is ever read (test/helpers/check-tester.ts runs the checks).
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { tempDir, writeFile } from "../../helpers/tmp.js";

export const NOW = Date.parse("2026-06-01T12:00:00.000Z");
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

const SECTION_NAMES = ["Objective", "Current Step", "Key Decisions", "Next Action", "Blockers", "Unsurfaced Results"] as const;
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

/** A continuity check case's workspace: the spec's files, and a `--transcripts DIR` built beside it. */
export type ContinuitySpec = WorkspaceSpec & { transcriptsDir?: (ws: Workspace) => string };

/** The CONT_* suites' clock and workspaces, for testCheck. */
export const CONTINUITY_CASES = {
  now: NOW,
  build: (spec: ContinuitySpec) => {
    const ws = makeWorkspace(spec);
    return spec.transcriptsDir ? { ...ws, transcriptsDir: spec.transcriptsDir(ws) } : ws;
  },
};
