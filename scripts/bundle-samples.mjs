// The sample workspaces a bundle's entry runs on at build time, so that V8 compiles what a real run
// needs before its code cache is written (scripts/bundle-bins.mjs, scripts/make-code-cache.cjs).
// Each takes an empty folder and the dist folder being built; `…Runs` give the entry's arguments, one
// list per call.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const load = (dist, file) => import(pathToFileURL(path.join(dist, file)).href);

/** A checkpoints folder touching every path of `validate`: valid, warnings, schema and rule errors, broken JSON. */
async function checkpointSample(work, dist) {
  const dir = path.join(work, ".checkpoints");
  fs.mkdirSync(dir);
  const { scaffoldCheckpoint } = await load(dist, "domains/checkpoints/write-service.js");
  const doc = (skill, extra = {}) => ({
    ...scaffoldCheckpoint(skill, dir, "2026-03-01T08:00:00.000Z"),
    progress_table: [{ id: "r1", label: "Handlers", status: "in_progress" }, { id: "r2", label: "Tests", status: "not_started" }],
    next_actions: [{ text: "Write the refund handler", done_when: "npm test" }, "Review"],
    ...extra,
  });
  const files = {
    "valid-a": doc("valid-a", { pm_refs: [{ provider: "jira", id: "SHOP-1", role: "source" }], skill_state: { cursor: 3 } }),
    "valid-b": doc("valid-b", { status: "blocked", blockers: [{ id: "b1", description: "Which queue?", blocking: "r2", needs: "user_decision" }] }),
    warnings: doc("warnings", { context_primer: undefined, blockers: [{ id: "b1", description: "x", blocking: ["r9"], needs: "code_fix" }], next_action: "typo" }),
    "schema-errors": doc("schema-errors", { status: "paused", created_at: "yesterday", progress_table: [{ id: "", label: 3 }], next_actions: [] }),
    "rule-errors": doc("other-name", { updated_at: "2026-02-30T00:00:00Z", progress_table: [{ id: "r1", label: "a", status: "complete" }, { id: "r1", label: "b", status: "complete" }] }),
  };
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, `${name}.checkpoint.json`), JSON.stringify(content, null, 2));
  fs.writeFileSync(path.join(dir, "broken.checkpoint.json"), '{\n  "skill": "broken",\n}');
}

const POLICY_YAML = "version: 1\nobservability:\n  replay:\n    retention:\n      max_runs: 100\n";

const SESSION = "0b6c7d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e";

/** Two workspaces for the hook: a bare one (a tool event's shortest path) and one with a policy.yaml and checkpoints. */
export async function hookSample(work, dist) {
  fs.mkdirSync(path.join(work, "bare", ".git"), { recursive: true });
  const full = path.join(work, "full");
  fs.mkdirSync(path.join(full, ".git"), { recursive: true });
  fs.mkdirSync(path.join(full, "agentic", "orchestrator"), { recursive: true });
  fs.writeFileSync(path.join(full, "agentic", "orchestrator", "policy.yaml"), POLICY_YAML);
  await checkpointSample(full, dist);
}

/**
 * Every event the hook acts on, as Claude Code sends them, in a session's order; tool events in both
 * workspaces; one Codex event. The first, a tool event where there is no policy.yaml, is what the
 * bundle's own cache holds (scripts/make-code-cache.cjs): the event of every tool call.
 */
export function hookRuns(work) {
  const event = (ws, name, extra = {}) => JSON.stringify({ session_id: SESSION, transcript_path: path.join(work, "t.jsonl"), cwd: path.join(work, ws), permission_mode: "default", hook_event_name: name, ...extra });
  const tool = (ws, id) => event(ws, "PostToolUse", { tool_name: "Edit", tool_input: { file_path: "a.ts", old_string: "a", new_string: "b" }, tool_response: { success: true }, tool_use_id: id, duration_ms: 3 });
  return [
    [tool("bare", "toolu_01")],
    [tool("bare", "toolu_02")],
    [event("full", "SessionStart", { source: "startup" })],
    [event("full", "UserPromptSubmit", { prompt: "go" })],
    [tool("full", "toolu_03")],
    [event("full", "PostToolUseFailure", { tool_name: "Bash", tool_input: { command: "false" }, tool_use_id: "toolu_04", error: "failed", is_interrupt: false })],
    [event("full", "PreCompact", { trigger: "auto" })],
    [event("full", "Stop", { stop_hook_active: false })],
    [event("full", "PreToolUse", { tool_name: "Bash", tool_input: { command: "true" }, tool_use_id: "toolu_05" })],
    [event("full", "SessionEnd", { reason: "other" })],
    // The other clients' events run the client-hook chunk (Codex's payloads are Claude Code's shape).
    [event("full", "PostToolUse", { tool_name: "Bash", tool_input: { command: "true" }, tool_response: "", tool_use_id: "call_01" }), { client: "codex" }],
  ];
}

/**
 * A workspace made through the CLI bundle itself, in processes of their own (what they compile is not
 * cached): a feature and a checkpoint.
 */
export async function cliSample(work, dist) {
  fs.mkdirSync(path.join(work, ".git"));
  const bundle = JSON.stringify(path.join(dist, "cli", "cli.bundle.cjs"));
  const loader = JSON.stringify(path.join(dist, "..", "bin", "load-bundle.cjs"));
  const env = { ...process.env };
  for (const name of ["AOP_ROOT", "AOP_RUN_ID", "AOP_SESSION_ID", "AOP_ACTOR", "AOP_NOW", "CLAUDE_PROJECT_DIR"]) delete env[name];
  const aop = (...argv) => execFileSync(process.execPath, ["-e", `require(${loader}).loadBundle(${bundle}).main(process.argv.slice(1))`, "--", ...argv], { cwd: work, stdio: "ignore", env });
  aop("init");
  aop("feature", "init", "sample", "--title", "Sample");
  aop("checkpoint", "update", "architect", "--status=in_progress", "--step=api-contract", "--progress_summary=Contract drafted.", '--next_actions:json=[{"text":"Write the error model","done_when":"true"}]');
}

/**
 * What is cached: the commands people and agents run all day and the program's help, each in its own
 * chunk's cache (a start reads the bundle's and its command's only); the bundle's own cache holds what
 * the first, `checkpoint next` (git hooks and agents run it all day), compiled (scripts/make-code-cache.cjs).
 * The chunks of the commands not run here get their caches from their first start. A function a cache
 * lacks is compiled when first called.
 */
export function cliRuns() {
  const commands = [["checkpoint", "next"], ["--help"], ["feature", "list"], ["checkpoint", "validate"], ["replay", "--list"], ["run", "status"], ["config", "check"], ["evidence", "verify", "--feature-id", "sample"], ["doctor"]];
  return commands.map((argv) => [argv]);
}
