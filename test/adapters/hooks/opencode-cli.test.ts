// aop under the real opencode CLI (npm opencode-ai, MIT; .ci/run installs the pinned version): `opencode run` runs
// offline against the scripted stand-in Chat Completions API on 127.0.0.1, with the MCP server and
// the plugin `aop integrate opencode --write` writes. The session's timeline must tell what the
// session did, every call once: opencode's own tools through aop's plugin (a failed one and a refused
// one as errors),
// aop's MCP tools through `aop mcp` only; the orientation must reach the model's system prompt.
// opencode installs @opencode-ai/plugin from the npm registry into the throw-away HOME when it starts
// with a plugin (docs/agents.md): the registry is used, no model service is.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { startFakeOpenAiApi, type FakeApi } from "../../helpers/clients/fake-openai-api.js";
import { localBin, offlineHome, runClient } from "../../helpers/clients/run-client.js";
import { allJoinedEntries, clientSession } from "../../helpers/timeline.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";

// .ci/run installs the pinned opencode into a throw-away prefix and names it in AOP_TEST_OPENCODE_BIN:
// the registry has only some of its platform packages, so it cannot be a devDependency `npm ci` installs.
const OPENCODE = process.env.AOP_TEST_OPENCODE_BIN || localBin("opencode");
const PROMPT = [
  "start",
  '@@tool bash {"command":"echo hi","description":"say hi"}',
  // opencode reports a command that exits non-zero as completed; its metadata.exit tells.
  `@@tool bash {"command":"sh -c 'echo failing; exit 3'","description":"fail"}`,
  '@@tool read {"filePath":"no-such-file.txt"}',
  '@@tool feature_init {"feature_id":"feat_oc","title":"From opencode","operation_id":"op-opencode-01"}',
  // Outside the project: opencode asks for permission, which `opencode run` refuses (and ends the turn).
  '@@tool read {"filePath":"/no/such/file.txt"}',
  "@@text ok",
].join("\n");

describe.skipIf(!OPENCODE)("aop under the real opencode CLI", { timeout: 240_000 }, () => {
  let api: FakeApi;
  let project: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    api = await startFakeOpenAiApi();
    project = tempWorkspace();
    const r = runCli(["integrate", "opencode", "--write"], { cwd: project });
    expect(r.code, r.stderr).toBe(0);
    writeFile(project, "memory/CURRENT_STATE.md", "# Current State\n\n## Objective\nShip the refund flow\n");
    // The user's side: a provider (the stand-in) and the model, added to the opencode.json aop wrote.
    const config = JSON.parse(fs.readFileSync(path.join(project, "opencode.json"), "utf8")) as Record<string, unknown>;
    config.provider = { fake: { npm: "@ai-sdk/openai-compatible", name: "fake", options: { baseURL: `${api.url}/v1`, apiKey: "offline-test-key" }, models: { "fake-model": { name: "fake", tool_call: true } } } };
    config.model = "fake/fake-model";
    config.permission = { bash: "allow", edit: "allow" };
    writeFile(project, "opencode.json", JSON.stringify(config, null, 2));
    const home = offlineHome();
    env = { ...home.env, OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1" };
  });
  afterAll(async () => {
    await api?.close();
  });

  it("a session with shell calls (one exiting 3), a failing read, an aop MCP call and a refused read: each call once, the failures and the refusal errors, markers, orientation", async () => {
    const run = await runClient(OPENCODE!, ["run", PROMPT], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    const entries = allJoinedEntries(project);
    const { session, story } = clientSession(entries, "opencode");
    expect(new Set(session.map((e) => e.run)).size).toBe(1);
    expect(story.slice(0, 6)).toEqual(["session.created", "chat.message", "bash", "bash!", "read!", "read!"]);
    expect(story.slice(6).every((s) => s === "session.idle")).toBe(true);
    expect(session.filter((e) => e.entry.tool_name === "read").map((e) => e.entry.error_code)).toEqual(["tool_error", "tool_denied"]);
    const [bash, failing] = session.filter((e) => e.entry.tool_name === "bash").map((e) => e.entry);
    expect(bash).toMatchObject({ result: "ok", error_code: null, transport: "hook:opencode", operation_id: expect.stringMatching(/^call_fake_/), client: "opencode", exit_status: 0 });
    expect(failing).toMatchObject({ result: "error", error_code: "command_exit_nonzero", transport: "hook:opencode", client: "opencode", exit_status: 3 });
    const inits = entries.filter((e) => e.entry.tool_name === "feature.init");
    expect(inits.map((e) => [e.entry.operation_id, e.entry.result, e.entry.transport])).toEqual([["op-opencode-01", "ok", "mcp"]]);
    expect(entries.some((e) => String(e.entry.tool_name).startsWith("aop_"))).toBe(false);
    expect(JSON.stringify(api.requests.map((r) => r.body))).toContain("aop-continuity orientation");
  });
});
