// Runs the real Claude Code CLI offline in a throw-away HOME and project, against the stand-in
// Messages API: `claude -p … --output-format stream-json --debug-file …`. Claude Code reports a
// rejected hook output reliably only in its debug log, so `rejections()` reads it from there (and from
// stream-json and stderr, where some events also show it).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { tempDir } from "../tmp.js";
import type { FakeApi } from "./fake-messages-api.js";

/** The Claude Code executable the suite runs (installed by .ci/run; never a dependency: proprietary). */
export const CLAUDE_BIN = process.env.AOP_TEST_CLAUDE_BIN;

export interface Sandbox {
  home: string;
  project: string;
  /** Claude Code's own temp folder (else it writes under /tmp/claude-<uid>). */
  tmp: string;
}

/** A HOME whose ~/.claude.json trusts the project (as accepting the trust dialog once does). */
export function createSandbox(options: { trusted?: boolean } = {}): Sandbox {
  const dir = tempDir("aop-claude-");
  const sandbox = { home: path.join(dir, "home"), project: path.join(dir, "proj"), tmp: path.join(dir, "tmp") };
  for (const d of Object.values(sandbox)) fs.mkdirSync(d, { recursive: true });
  const projects = options.trusted === false ? {} : { [sandbox.project]: { hasTrustDialogAccepted: true } };
  fs.writeFileSync(path.join(sandbox.home, ".claude.json"), JSON.stringify({ projects }, null, 2));
  return sandbox;
}

function offlineEnv(sandbox: Sandbox, api: FakeApi, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: sandbox.home,
    USER: process.env.USER ?? "root",
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
    TMPDIR: sandbox.tmp,
    CLAUDE_CODE_TMPDIR: sandbox.tmp,
    ANTHROPIC_API_KEY: "offline-test-key",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    NO_COLOR: "1",
    // Even `claude mcp list` waits ~18 s on an unreachable default API host: always point it here.
    ANTHROPIC_BASE_URL: api.url,
    ...extra,
  };
  return env;
}

export interface ClaudeRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stream-json lines. */
  events: Record<string, unknown>[];
  debugLog: string;
}

let runs = 0;

/** `claude <args>` in the project; with a prompt, a print-mode session with hook events and a debug log. */
export function runClaude(sandbox: Sandbox, options: { api: FakeApi; prompt?: string; args?: string[]; env?: Record<string, string>; timeoutMs?: number }): Promise<ClaudeRun> {
  if (!CLAUDE_BIN) throw new Error("AOP_TEST_CLAUDE_BIN is not set");
  const debugFile = path.join(sandbox.tmp, `debug-${++runs}.log`);
  const argv = options.prompt === undefined ? (options.args ?? []) : ["-p", options.prompt, "--output-format", "stream-json", "--verbose", "--include-hook-events", "--debug-file", debugFile, ...(options.args ?? [])];
  return new Promise((resolve, reject) => {
    const child = spawn(CLAUDE_BIN, argv, { cwd: sandbox.project, env: offlineEnv(sandbox, options.api, options.env), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 90_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      const events: Record<string, unknown>[] = [];
      for (const line of stdout.split("\n")) {
        try {
          if (line.trim()) events.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          // not a stream-json line
        }
      }
      resolve({ code, stdout, stderr, events, debugLog: fs.existsSync(debugFile) ? fs.readFileSync(debugFile, "utf8") : "" });
    });
  });
}

const REJECTED = ["Hook JSON output validation failed", "Hook returned incorrect event name"];

/** Every hook output Claude Code rejected in this run (debug log, stream-json, stderr). */
export function rejections(run: ClaudeRun): string[] {
  const hit = (s: unknown) => typeof s === "string" && REJECTED.some((r) => s.includes(r));
  const out: string[] = [];
  for (const line of run.debugLog.split("\n")) if (line.includes("[ERROR]") && hit(line)) out.push(line);
  for (const e of run.events) if (e.type === "system" && e.subtype === "hook_response" && hit(e.stderr)) out.push(String(e.stderr));
  if (hit(run.stderr)) out.push(run.stderr);
  return out;
}

/** Events whose hooks Claude Code reports having run (stream-json `hook_response`; PreCompact and SessionEnd never appear). */
export function hookOutcomes(run: ClaudeRun): { event: string; outcome: string; stdout: string }[] {
  return run.events.filter((e) => e.type === "system" && e.subtype === "hook_response").map((e) => ({ event: String(e.hook_event), outcome: String(e.outcome), stdout: String(e.stdout ?? "") }));
}

export function sessionIdOf(run: ClaudeRun): string {
  const result = run.events.find((e) => e.type === "result");
  if (!result || typeof result.session_id !== "string") throw new Error(`no result line (exit ${run.code}):\n${run.stderr.slice(0, 2000)}`);
  return result.session_id;
}
