// aop under the real Gemini CLI (npm @google/gemini-cli, a pinned devDependency): `gemini -p` runs
// offline against the scripted stand-in Gemini API on 127.0.0.1, with the hooks and MCP server that
// `aop integrate gemini --write` writes. The session's timeline must tell what the session did, every
// call once: Gemini's own tools through the hook (a failed one as an error), aop's MCP tools through
// `aop mcp` only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGeminiApi } from "../../helpers/clients/fake-gemini-api.js";
import type { FakeApi } from "../../helpers/clients/fake-openai-api.js";
import { localBin, offlineHome, runClient, wiredProject } from "../../helpers/clients/run-client.js";
import { allJoinedEntries } from "../../helpers/timeline.js";
import { writeFile } from "../../helpers/tmp.js";

const GEMINI = localBin("gemini");
const PROMPT = [
  "start",
  '@@tool run_shell_command {"command":"echo hi"}',
  '@@tool read_file {"file_path":"no-such-file.txt"}',
  '@@tool feature_init {"feature_id":"feat_gm","title":"From Gemini","operation_id":"op-gemini-0001"}',
  "@@text ok",
].join("\n");

describe.skipIf(!GEMINI)("aop under the real Gemini CLI", { timeout: 240_000 }, () => {
  let api: FakeApi;
  let project: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    api = await startFakeGeminiApi();
    project = wiredProject("gemini");
    const home = offlineHome();
    // The user's side: an API key login, and trust in the project folder (Gemini CLI reads a project's
    // .gemini/settings.json only in a trusted folder).
    writeFile(home.home, ".gemini/settings.json", JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }));
    writeFile(home.home, ".gemini/trustedFolders.json", JSON.stringify({ [project]: "TRUST_FOLDER" }));
    env = { ...home.env, GEMINI_API_KEY: "offline-test-key", GOOGLE_GEMINI_BASE_URL: api.url };
  });
  afterAll(async () => {
    await api?.close();
  });

  it("a session with a shell call, a failing read and an aop MCP call: each call once, the failure an error, markers, orientation and the stop reminder", async () => {
    const run = await runClient(GEMINI!, ["-p", PROMPT, "--yolo", "-m", "gemini-2.5-flash"], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    const entries = allJoinedEntries(project);
    const session = entries.filter((e) => e.run.startsWith("gemini-"));
    expect(new Set(session.map((e) => e.run)).size).toBe(1);
    const story = session.map((e) => `${String(e.entry.marker ?? e.entry.tool_name)}${e.entry.result === "error" ? "!" : ""}`);
    expect(story).toEqual(["SessionStart:startup", "BeforeAgent", "run_shell_command", "read_file!", "AfterAgent", "BeforeAgent", "AfterAgent", "SessionEnd:exit"]);
    expect(session.find((e) => e.entry.tool_name === "read_file")!.entry).toMatchObject({ result: "error", error_code: "tool_error", transport: "hook:gemini" });
    const inits = entries.filter((e) => e.entry.tool_name === "feature.init");
    expect(inits.map((e) => [e.entry.operation_id, e.entry.result, e.entry.transport])).toEqual([["op-gemini-0001", "ok", "mcp"]]);
    expect(entries.some((e) => String(e.entry.tool_name).startsWith("mcp_aop_"))).toBe(false);
    const requests = JSON.stringify(api.requests.map((r) => r.body));
    expect(requests).toContain("aop-continuity orientation");
    expect(requests).toContain("Before you stop: memory/CURRENT_STATE.md is older");
  });
});
