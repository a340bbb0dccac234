// aop under the real Codex CLI (npm @openai/codex, a pinned devDependency): `codex exec` runs offline
// against the scripted stand-in Responses API on 127.0.0.1, with the hooks and MCP server that
// `aop integrate codex --write` writes. The session's timeline must tell what the session did, every
// call once: Codex's own tools through the hook, aop's MCP tools through `aop mcp` only.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAiApi, type FakeApi } from "../../helpers/clients/fake-openai-api.js";
import { localBin, offlineHome, runClient, wiredProject } from "../../helpers/clients/run-client.js";
import { allJoinedEntries } from "../../helpers/timeline.js";
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

describe.skipIf(!CODEX)("aop under the real Codex CLI", { timeout: 240_000 }, () => {
  let api: FakeApi;
  let project: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    api = await startFakeOpenAiApi();
    project = wiredProject("codex");
    const home = offlineHome();
    const codexHome = path.join(home.home, ".codex");
    // The user's side of the set-up: the model provider, and trust in the project (Codex reads a
    // project's .codex/ only when it is trusted). Hook review is the user's too: the run bypasses it.
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
    env = { ...home.env, CODEX_HOME: codexHome, OPENAI_API_KEY: "offline-test-key" };
  });
  afterAll(async () => {
    await api?.close();
  });

  it("a session with shell calls (one exiting 3) and aop MCP calls (one failing): each call once, the failures errors, markers, orientation and the stop reminder", async () => {
    const run = await runClient(CODEX!, ["exec", "--dangerously-bypass-hook-trust", "--skip-git-repo-check", PROMPT], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    const entries = allJoinedEntries(project);
    const session = entries.filter((e) => e.run.startsWith("codex-"));
    const runs = new Set(session.map((e) => e.run));
    expect(runs.size).toBe(1);
    const story = session.map((e) => `${String(e.entry.marker ?? e.entry.tool_name)}${e.entry.result === "error" ? "!" : ""}`);
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
});
