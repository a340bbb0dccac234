// aop under the real Codex CLI (npm @openai/codex, a pinned devDependency): `codex exec` runs offline
// against the scripted stand-in Responses API on 127.0.0.1, with the hooks and MCP server that
// `aop integrate codex --write` writes. The session's timeline must tell what the session did, every
// call once: Codex's own tools through the hook, aop's MCP tools through `aop mcp` only.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAiApi, type FakeApi } from "../../helpers/clients/fake-openai-api.js";
import { GUARDED, guardHook, localBin, offlineHome, runClient, wiredProject } from "../../helpers/clients/run-client.js";
import { runCli, runJson } from "../../helpers/cli.js";
import { allJoinedEntries, clientSession } from "../../helpers/timeline.js";
import { writeFile } from "../../helpers/tmp.js";

const CODEX = localBin("codex");
const PROMPT = [
  "start",
  '@@tool exec_command {"cmd":"echo hi"}',
  // A failing command: Codex's PostToolUse says only its output; the rollout tells its exit status.
  `@@tool exec_command {"cmd":"sh -c 'echo failing; exit 3'"}`,
  '@@tool feature_init {"feature_id":"feat_cx","title":"From Codex","operation_id":"op-codex-0001"}',
  '@@tool feature_init {"feature_id":"Not An Id!","title":"Bad","operation_id":"op-codex-0002"}',
  "@@text ok",
].join("\n");

/**
 * The user's side of the set-up, in a throw-away HOME: the model provider, and trust in the project
 * (Codex reads a project's .codex/ only when it is trusted). Hook review is the user's too: the run
 * bypasses it.
 */
function codexEnv(api: FakeApi, project: string): NodeJS.ProcessEnv {
  const home = offlineHome();
  const codexHome = path.join(home.home, ".codex");
  writeFile(
    codexHome,
    "config.toml",
    [
      'model = "fake-model"',
      'model_provider = "fake"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      "[model_providers.fake]",
      'name = "fake"',
      `base_url = "${api.url}/v1"`,
      'wire_api = "responses"',
      `[projects.${JSON.stringify(project)}]`,
      'trust_level = "trusted"',
      "",
    ].join("\n"),
  );
  return { ...home.env, CODEX_HOME: codexHome, OPENAI_API_KEY: "offline-test-key" };
}

const CODEX_EXEC = (prompt: string) => ["exec", "--dangerously-bypass-hook-trust", "--skip-git-repo-check", prompt];

describe.skipIf(!CODEX)("aop under the real Codex CLI", { timeout: 240_000 }, () => {
  let api: FakeApi;
  let project: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    api = await startFakeOpenAiApi();
    project = wiredProject("codex");
    env = codexEnv(api, project);
  });
  afterAll(async () => {
    await api?.close();
  });

  it("a session with shell calls (one exiting 3) and aop MCP calls (one failing): each call once, the failures errors, markers, orientation and the stop reminder", async () => {
    const run = await runClient(CODEX!, CODEX_EXEC(PROMPT), { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    const entries = allJoinedEntries(project);
    const { session, story } = clientSession(entries, "codex");
    const runs = new Set(session.map((e) => e.run));
    expect(runs.size).toBe(1);
    expect(story).toEqual(["SessionStart:startup", "UserPromptSubmit", "Bash", "Bash!", "Stop", "Stop"]);
    const [bash, failing] = session.filter((e) => e.entry.tool_name === "Bash").map((e) => e.entry);
    expect(bash).toMatchObject({ mutating: true, result: "ok", error_code: null, transport: "hook:codex", operation_id: expect.stringMatching(/^call_fake_/), client: "codex", exit_status: 0 });
    expect(failing).toMatchObject({ result: "error", error_code: "command_exit_nonzero", transport: "hook:codex", operation_id: expect.stringMatching(/^call_fake_/), client: "codex", exit_status: 3 });
    // aop's own calls: recorded once each, by `aop mcp`, never by the hook.
    const inits = entries.filter((e) => e.entry.tool_name === "feature.init");
    expect(inits.map((e) => [e.entry.operation_id, e.entry.result, e.entry.transport])).toEqual([
      ["op-codex-0001", "ok", "mcp"],
      ["op-codex-0002", "error", "mcp"],
    ]);
    expect(entries.some((e) => String(e.entry.tool_name).startsWith("mcp__aop__"))).toBe(false);
    const requests = JSON.stringify(api.requests.map((r) => r.body));
    // SessionStart's additionalContext reached the model, and Stop's block sent the reminder once.
    expect(requests).toContain("aop-continuity orientation");
    expect(requests).toContain("Objective: Ship the refund flow");
    expect(requests.split("Before you stop: memory/CURRENT_STATE.md is older").length - 1).toBeGreaterThanOrEqual(1);
  });

  it("calls another PreToolUse hook refused (a shell command, an aop MCP call) and one Codex's exec policy forbade: each recorded once at Stop as tool_denied, from the rollout", async () => {
    const guarded = wiredProject("codex");
    const hooksFile = path.join(guarded, ".codex/hooks.json");
    const hooks = JSON.parse(fs.readFileSync(hooksFile, "utf8")) as { hooks: Record<string, unknown[]> };
    hooks.hooks.PreToolUse = [{ hooks: [{ type: "command", command: guardHook(guarded), timeout: 10 }] }];
    fs.writeFileSync(hooksFile, JSON.stringify(hooks, null, 2));
    const prompt = [
      "start",
      '@@tool exec_command {"cmd":"echo hi"}',
      `@@tool exec_command {"cmd":"echo ${GUARDED}"}`,
      `@@tool feature_init {"feature_id":"feat_guarded","title":"${GUARDED}","operation_id":"op-codex-guarded"}`,
      '@@tool exec_command {"cmd":"rm -f nothing-here"}',
      "@@text ok",
    ].join("\n");
    const guardedEnv = codexEnv(api, guarded);
    // The user's exec policy forbids `rm`: Codex refuses it before any hook runs.
    writeFile(guardedEnv.CODEX_HOME!, "rules/default.rules", 'prefix_rule(pattern=["rm"], decision="forbidden")\n');
    const run = await runClient(CODEX!, CODEX_EXEC(prompt), { cwd: guarded, env: guardedEnv });
    expect(run.code, run.stderr).toBe(0);
    // Codex refused both (the guard ran), and the block-mode reminder made a second Stop.
    expect(run.stderr).toContain(`Command blocked by PreToolUse hook: the guard refuses this call. Command: echo ${GUARDED}`);
    const entries = allJoinedEntries(guarded);
    const { session, story } = clientSession(entries, "codex");
    expect(story).toEqual(["SessionStart:startup", "UserPromptSubmit", "Bash", "Bash!", "mcp__aop__feature_init!", "Bash!", "Stop", "Stop"]);
    const [shell, mcp, forbidden] = session.filter((e) => e.entry.error_code === "tool_denied").map((e) => e.entry);
    const refused = { result: "error", error_code: "tool_denied", transport: "hook:codex", client: "codex", blocked_by: "hook", found_in: "rollout" };
    expect(shell).toMatchObject({ ...refused, tool_name: "Bash", mutating: true, operation_id: expect.stringMatching(/^call_fake_/), request_hash: expect.stringMatching(/^sha256:/) });
    expect(mcp).toMatchObject({ ...refused, tool_name: "mcp__aop__feature_init", operation_id: expect.stringMatching(/^call_fake_/) });
    expect(forbidden).toMatchObject({ ...refused, blocked_by: "policy", tool_name: "Bash", operation_id: expect.stringMatching(/^call_fake_/) });
    expect(shell!.tool_use_id).toBe(shell!.operation_id);
    // The refused aop call never reached `aop mcp`: no entry of its own anywhere.
    expect(entries.some((e) => e.entry.operation_id === "op-codex-guarded")).toBe(false);
    // `aop replay` shows each refused call once, though Stop came twice.
    const replay = runJson<{ entries: Record<string, unknown>[] }>(["replay", "--run-id", session[0]!.run], { cwd: guarded });
    expect(replay.code, replay.stderr).toBe(0);
    const denied = replay.json.entries.filter((e) => e.error_code === "tool_denied");
    expect(denied.map((e) => [e.tool_name, e.operation_id, e.ext])).toEqual([
      ["Bash", shell!.operation_id, { client: "codex", tool_use_id: shell!.operation_id, blocked_by: "hook", found_in: "rollout" }],
      ["mcp__aop__feature_init", mcp!.operation_id, { client: "codex", tool_use_id: mcp!.operation_id, blocked_by: "hook", found_in: "rollout" }],
      ["Bash", forbidden!.operation_id, { client: "codex", tool_use_id: forbidden!.operation_id, blocked_by: "policy", found_in: "rollout" }],
    ]);
    const text = runCli(["replay", "--run-id", session[0]!.run], { cwd: guarded });
    expect(text.stdout.match(/tool_denied/g)).toHaveLength(3);
  });
});
