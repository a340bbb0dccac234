// aop under the real Gemini CLI (npm @google/gemini-cli, a pinned devDependency): `gemini -p` runs
// offline against the scripted stand-in Gemini API on 127.0.0.1, with the hooks and MCP server that
// `aop integrate gemini --write` writes. The session's timeline must tell what the session did, every
// call once: Gemini's own tools through the hook (a failed one as an error), aop's MCP tools through
// `aop mcp` only.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGeminiApi } from "../../helpers/clients/fake-gemini-api.js";
import type { FakeApi } from "../../helpers/clients/fake-openai-api.js";
import { GUARDED, guardHook, localBin, offlineHome, runClient, wiredProject } from "../../helpers/clients/run-client.js";
import { runJson } from "../../helpers/cli.js";
import { allJoinedEntries, clientSession } from "../../helpers/timeline.js";
import { writeFile } from "../../helpers/tmp.js";

const GEMINI = localBin("gemini");
const PROMPT = [
  "start",
  '@@tool run_shell_command {"command":"echo hi"}',
  '@@tool read_file {"file_path":"no-such-file.txt"}',
  '@@tool feature_init {"feature_id":"feat_gm","title":"From Gemini","operation_id":"op-gemini-0001"}',
  "@@text ok",
].join("\n");

/**
 * The user's side, in a throw-away HOME: an API key login, and trust in the project folder (Gemini CLI
 * reads a project's .gemini/settings.json only in a trusted folder).
 */
function geminiEnv(api: FakeApi, project: string): NodeJS.ProcessEnv {
  const home = offlineHome();
  writeFile(home.home, ".gemini/settings.json", JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }));
  writeFile(home.home, ".gemini/trustedFolders.json", JSON.stringify({ [project]: "TRUST_FOLDER" }));
  return { ...home.env, GEMINI_API_KEY: "offline-test-key", GOOGLE_GEMINI_BASE_URL: api.url };
}

const GEMINI_ARGS = (prompt: string) => ["-p", prompt, "--yolo", "-m", "gemini-2.5-flash"];

describe.skipIf(!GEMINI)("aop under the real Gemini CLI", { timeout: 240_000 }, () => {
  let api: FakeApi;
  let project: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    api = await startFakeGeminiApi();
    project = wiredProject("gemini");
    env = geminiEnv(api, project);
  });
  afterAll(async () => {
    await api?.close();
  });

  it("a session with a shell call, a failing read and an aop MCP call: each call once, the failure an error, markers, orientation and the stop reminder", async () => {
    const run = await runClient(GEMINI!, GEMINI_ARGS(PROMPT), { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    const entries = allJoinedEntries(project);
    const { session, story } = clientSession(entries, "gemini");
    expect(new Set(session.map((e) => e.run)).size).toBe(1);
    expect(story).toEqual(["SessionStart:startup", "BeforeAgent", "run_shell_command", "read_file!", "AfterAgent", "BeforeAgent", "AfterAgent", "SessionEnd:exit"]);
    expect(session.find((e) => e.entry.tool_name === "read_file")!.entry).toMatchObject({ result: "error", error_code: "tool_error", transport: "hook:gemini" });
    const inits = entries.filter((e) => e.entry.tool_name === "feature.init");
    expect(inits.map((e) => [e.entry.operation_id, e.entry.result, e.entry.transport])).toEqual([["op-gemini-0001", "ok", "mcp"]]);
    expect(entries.some((e) => String(e.entry.tool_name).startsWith("mcp_aop_"))).toBe(false);
    const requests = JSON.stringify(api.requests.map((r) => r.body));
    expect(requests).toContain("aop-continuity orientation");
    expect(requests).toContain("Before you stop: memory/CURRENT_STATE.md is older");
  });

  it("calls a BeforeTool hook refused (a shell command, an aop MCP call) and one a policy rule denied: each recorded once as tool_denied, from the transcript", async () => {
    const guarded = wiredProject("gemini");
    const settingsFile = path.join(guarded, ".gemini/settings.json");
    const settings = JSON.parse(fs.readFileSync(settingsFile, "utf8")) as { hooks: Record<string, unknown[]> };
    settings.hooks.BeforeTool = [{ matcher: "*", hooks: [{ type: "command", name: "guard", command: guardHook(guarded), timeout: 10_000 }] }];
    fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2));
    const prompt = [
      "start",
      '@@tool run_shell_command {"command":"echo hi"}',
      `@@tool run_shell_command {"command":"echo ${GUARDED}"}`,
      `@@tool feature_init {"feature_id":"feat_guarded","title":"${GUARDED}","operation_id":"op-gemini-guarded"}`,
      '@@tool run_shell_command {"command":"rm -f nothing-here"}',
      "@@text ok",
    ].join("\n");
    const guardedEnv = geminiEnv(api, guarded);
    // The user's policy denies `rm` (even under --yolo): Gemini refuses it before any hook runs.
    writeFile(guardedEnv.HOME!, ".gemini/policies/deny-rm.toml", '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 900\n');
    const run = await runClient(GEMINI!, GEMINI_ARGS(prompt), { cwd: guarded, env: guardedEnv });
    expect(run.code, run.stderr).toBe(0);
    const entries = allJoinedEntries(guarded);
    const { session, story } = clientSession(entries, "gemini");
    // Read at the first AfterAgent; the second one and SessionEnd find them recorded already.
    expect(story).toEqual(["SessionStart:startup", "BeforeAgent", "run_shell_command", "run_shell_command!", "mcp_aop_feature_init!", "run_shell_command!", "AfterAgent", "BeforeAgent", "AfterAgent", "SessionEnd:exit"]);
    const [shell, mcp, denied] = session.filter((e) => e.entry.error_code === "tool_denied").map((e) => e.entry);
    const refused = { result: "error", error_code: "tool_denied", transport: "hook:gemini", client: "gemini", blocked_by: "hook", found_in: "transcript" };
    expect(shell).toMatchObject({ ...refused, tool_name: "run_shell_command", mutating: true, operation_id: expect.stringMatching(/^run_shell_command_/), request_hash: expect.stringMatching(/^sha256:/) });
    expect(mcp).toMatchObject({ ...refused, tool_name: "mcp_aop_feature_init", operation_id: expect.stringMatching(/feature_init/) });
    expect(denied).toMatchObject({ ...refused, blocked_by: "policy", tool_name: "run_shell_command" });
    expect(entries.some((e) => e.entry.operation_id === "op-gemini-guarded")).toBe(false);
    const replay = runJson<{ entries: Record<string, unknown>[] }>(["replay", "--run-id", session[0]!.run], { cwd: guarded });
    expect(replay.code, replay.stderr).toBe(0);
    const refusedEntries = replay.json.entries.filter((e) => e.error_code === "tool_denied");
    expect(refusedEntries.map((e) => [e.tool_name, e.operation_id, e.ext])).toEqual([
      ["run_shell_command", shell!.operation_id, { client: "gemini", tool_use_id: shell!.operation_id, blocked_by: "hook", found_in: "transcript" }],
      ["mcp_aop_feature_init", mcp!.operation_id, { client: "gemini", tool_use_id: mcp!.operation_id, blocked_by: "hook", found_in: "transcript" }],
      ["run_shell_command", denied!.operation_id, { client: "gemini", tool_use_id: denied!.operation_id, blocked_by: "policy", found_in: "transcript" }],
    ]);
  });
});
