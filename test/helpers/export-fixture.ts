// A workspace whose runs exercise every kind of span the OTLP export builds, made through the built
// CLI the way agents make them: a Claude Code session (hook events, a subagent, a failure) that also
// calls aop's kernel (a success, a replay, an error, a gate run with a failing step, a call served by
// `aop mcp`), and a plain kernel run.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { systemClock } from "../../src/core/clock.js";
import { WorkspaceLayout } from "../../src/store/layout.js";
import { ensureWorkspaceIdentity } from "../../src/store/workspace-identity.js";
import { runCli, runCliAsync } from "./cli.js";
import { startReceiver, type Receiver } from "./otlp-receiver.js";
import { REPO_ROOT } from "./paths.js";
import { gatesYaml, nodeStep } from "./gates.js";
import { tempDir, tempWorkspace, writeFile } from "./tmp.js";

export const SESSION = "5e1f0c2a-7b3d-4e8f-9a6b-1c2d3e4f5a6b";
export const AGENT_RUN = `claude-${SESSION}`;
export const KERNEL_RUN = "run:e2e-kernel";
export const SUBAGENT = { id: "agent-7c1d", type: "Explore" };

export interface ExportFixture {
  root: string;
  /** How many entries AGENT_RUN holds (AGENT_ENTRIES). */
  agentEntries: number;
}

function cli(root: string, args: string[], expectCode = 0): void {
  const r = runCli(args, { cwd: root });
  if (r.code !== expectCode) throw new Error(`aop ${args.join(" ")} exited ${r.code} (wanted ${expectCode}):\n${r.stdout}\n${r.stderr}`);
}

export function hookEvent(root: string, name: string, extra: object): void {
  const input = JSON.stringify({ session_id: SESSION, transcript_path: path.join(root, "t.jsonl"), cwd: root, permission_mode: "default", hook_event_name: name, ...extra });
  const r = runCli(["hook", "claude"], { cwd: root, input });
  if (r.code !== 0) throw new Error(`hook ${name} exited ${r.code}: ${r.stderr}`);
}

function buildExportFixture(): ExportFixture {
  const root = tempWorkspace();
  writeFile(root, "agentic/orchestrator/gates.yaml", gatesYaml({ check: [nodeStep("lint", ""), nodeStep("tests", "process.exit(3)")] }));
  const run = ["--run-id", AGENT_RUN];
  const sub = { agent_id: SUBAGENT.id, agent_type: SUBAGENT.type };
  hookEvent(root, "UserPromptSubmit", { prompt: "fix the login bug" });
  hookEvent(root, "PostToolUse", { tool_name: "Read", tool_input: { file_path: "src/a.ts" }, tool_response: { content: "x" }, tool_use_id: "toolu_01Read", duration_ms: 12 });
  hookEvent(root, "SubagentStart", sub);
  hookEvent(root, "PostToolUse", { tool_name: "Grep", tool_input: { pattern: "login" }, tool_use_id: "toolu_01Grep", duration_ms: 30, ...sub });
  hookEvent(root, "PostToolUse", { tool_name: "Edit", tool_input: { file_path: "src/a.ts" }, tool_use_id: "toolu_01Edit", duration_ms: 8, ...sub });
  hookEvent(root, "SubagentStop", { ...sub, stop_hook_active: false });
  hookEvent(root, "PostToolUseFailure", { tool_name: "Bash", tool_input: { command: "npm test" }, tool_use_id: "toolu_01Bash", error: "exit 1", duration_ms: 40 });
  cli(root, ["feature", "init", "feat_login", "--title", "Login", "--operation-id", "op-feature-0001", ...run]);
  cli(root, ["feature", "init", "feat_login", "--title", "Login", "--operation-id", "op-feature-0001", ...run]); // replay
  cli(root, ["feature", "init", "feat_login", "--title", "Login", "--operation-id", "op-feature-0002", ...run], 1); // feature_already_exists
  cli(root, ["gates", "run", "--feature-id", "feat_login", "--mode", "check", "--operation-id", "op-gate-00001", ...run], 1); // the gate fails
  cli(root, ["feature", "list", "--transport", "mcp", ...run]);
  cli(root, ["feature", "list", "--run-id", KERNEL_RUN]);
  cli(root, ["run", "status", "--run-id", KERNEL_RUN]);
  return { root, agentEntries: AGENT_ENTRIES };
}

/**
 * A throw-away copy, so each test starts with the fixture's timelines and no cursors. A copy is another
 * workspace: its id is settled here (renewed, as the first command in it would), so a test knows its
 * trace ids before it exports.
 */
export async function copyFixture(fixture: ExportFixture): Promise<string> {
  const copy = path.join(tempDir("aop-export-"), "ws");
  fs.cpSync(fixture.root, copy, { recursive: true });
  await ensureWorkspaceIdentity(new WorkspaceLayout(copy), systemClock);
  return copy;
}

/** The workspace id `.aop/workspace.json` holds. */
export function workspaceIdOf(root: string): string {
  return (JSON.parse(fs.readFileSync(path.join(root, ".aop", "workspace.json"), "utf8")) as { workspace_id: string }).workspace_id;
}

// The ids as docs/otel.md derives them, computed here independently of the export's code.
export const sha = (text: string) => createHash("sha256").update(text).digest("hex");
export const traceId = (root: string, runId: string) => sha(`aop:${workspaceIdOf(root)}:${runId}`).slice(0, 32);
export const spanId = (root: string, runId: string, sequence: number) => sha(`${workspaceIdOf(root)}:${runId}:${sequence}`).slice(0, 16);
export const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
/** AGENT_RUN's entries: 4 tool calls and 3 markers recorded by the hook, 5 kernel calls. */
const AGENT_ENTRIES = 12;
/** Spans of AGENT_RUN: its entries, the gate's two steps, the root, the subagent. */
export const AGENT_SPANS = AGENT_ENTRIES + 2 + 1 + 1;

/** Asynchronous: the receiver runs in the test's process and must answer while the CLI waits for it. */
export function exportCli(root: string, args: string[], env: Record<string, string | undefined> = {}) {
  return runCliAsync(["export", "otlp", ...args], { cwd: root, env });
}

export async function exportJson<T>(root: string, args: string[]): Promise<{ code: number; json: T; stderr: string }> {
  const r = await exportCli(root, [...args, "--json"]);
  try {
    return { code: r.code, json: JSON.parse(r.stdout) as T, stderr: r.stderr };
  } catch {
    throw new Error(`not JSON (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
}

export function cursorFiles(root: string): string[] {
  const dir = path.join(root, ".aop", "runtime", "export");
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".cursor.json")) : [];
}

/**
 * A test file's receiver (one per file: every receiver in a process sees every other's traces) and
 * fixture, started before its tests and closed after them.
 */
export function setUpExportTests(ready: (receiver: Receiver, fixture: ExportFixture) => void): void {
  let receiver: Receiver | undefined;
  beforeAll(async () => {
    receiver = await startReceiver();
    ready(receiver, buildExportFixture());
  });
  afterAll(async () => {
    await receiver?.close();
  });
}
