// aop under the real OpenClaw (npm openclaw, MIT; .ci/run installs the pinned version into a throw-away
// prefix and names its openclaw.mjs in AOP_TEST_OPENCLAW_BIN; it needs Node ≥ 24.16, taken from the Node
// matrix's cache, scripts/node-binary.mjs). The project is wired by `aop integrate openclaw --write`,
// and the OpenClaw commands it prints as next steps are run as printed, against a throw-away HOME: OpenClaw's
// own config writer must accept them and its plugin loader must load aop's plugin with its hooks.
// `openclaw agent exec` then runs one turn offline against the scripted stand-in Chat Completions API on
// 127.0.0.1: the session's timeline must tell what the turn did, every call once, the failure an error,
// aop's MCP calls from `aop mcp` only, and the orientation must reach the model. Last, a Gateway on
// 127.0.0.1 takes the `openclaw cron add` line aop prints, once however often it is added, and running the
// job leaves the doctor's report in the project.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cachedNode, nodeOf } from "../../../scripts/node-binary.mjs";
import { runCli } from "../../helpers/cli.js";
import { startFakeOpenAiApi, type FakeApi } from "../../helpers/clients/fake-openai-api.js";
import { offlineHome, runClient } from "../../helpers/clients/run-client.js";
import { allJoinedEntries, clientSession } from "../../helpers/timeline.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";

const OPENCLAW = process.env.AOP_TEST_OPENCLAW_BIN || null;
const IN_CI = process.env.CI === "true";
if (!OPENCLAW && IN_CI) throw new Error("AOP_TEST_OPENCLAW_BIN is not set: .ci/run installs OpenClaw and sets it");

/** Node 24 (OpenClaw's engines: >=24.16 <25 || >=26.1), from the matrix cache; installed on first use only in CI. */
function node24(): string {
  return cachedNode("24") ?? nodeOf("24");
}

const PROMPT = [
  "start",
  '@@tool exec {"command":"echo hi"}',
  '@@tool read {"path":"no-such-file.txt"}',
  '@@tool feature_init {"feature_id":"feat_claw","title":"From OpenClaw","operation_id":"op-openclaw-01"}',
  "@@text ok",
].join("\n");

describe.skipIf(!OPENCLAW)("aop under the real OpenClaw", { timeout: 300_000 }, () => {
  let api: FakeApi;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let node: string;
  const openclaw = (args: string[], timeoutMs = 120_000) => runClient(node, [OPENCLAW!, ...args], { cwd: project, env, timeoutMs });
  /** Changes OpenClaw's own config file in place: a test's set-up, where `openclaw config set` is seconds of CPU a key. */
  const editConfig = (change: (config: Record<string, Record<string, unknown>>) => void) => {
    const file = path.join(env.HOME!, ".openclaw", "openclaw.json");
    const config = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, Record<string, unknown>>;
    change(config);
    fs.writeFileSync(file, JSON.stringify(config, null, 2));
  };

  beforeAll(async () => {
    node = node24();
    api = await startFakeOpenAiApi();
    project = tempWorkspace();
    writeFile(project, "memory/CURRENT_STATE.md", "# Current State\n\n## Objective\nShip the refund flow\n");
    const home = offlineHome();
    // No compile cache: a Gateway's last writes there would race the throw-away HOME's removal.
    env = { ...home.env, OPENCLAW_SKIP_CHANNELS: "1", OPENCLAW_DISABLE_UPDATE_CHECK: "1", NODE_DISABLE_COMPILE_CACHE: "1" };
  });
  afterAll(async () => {
    await api?.close();
  });

  it("OpenClaw's CLI accepts the next steps aop integrate prints, and loads aop's plugin with its hooks", async () => {
    const r = runCli(["integrate", "openclaw", "--write", "--json"], { cwd: project });
    expect(r.code, r.stderr).toBe(0);
    const steps = (JSON.parse(r.stdout) as { next_steps: string[] }).next_steps;
    const commands = steps.flatMap((s) => s.split("\n")).filter((l) => l.startsWith("openclaw ") && !l.startsWith("openclaw cron "));
    const ws = await openclaw(["config", "set", "agents.defaults.workspace", project]);
    expect(ws.code, ws.stderr).toBe(0);
    for (const line of commands) {
      const run = spawnSync("/bin/sh", ["-c", `"$NODE" "$OPENCLAW" ${line.slice("openclaw ".length)}`], { cwd: project, env: { ...env, NODE: node, OPENCLAW: OPENCLAW! }, encoding: "utf8", timeout: 120_000 });
      expect(run.status, `${line}\n${run.stderr}`).toBe(0);
    }
    const config = JSON.parse(fs.readFileSync(path.join(env.HOME!, ".openclaw", "openclaw.json"), "utf8")) as { mcp: { servers: Record<string, { args: string[] }> }; plugins: { entries: Record<string, unknown> } };
    expect(config.mcp.servers.aop!.args.slice(-3)).toEqual(["mcp", "--root", project]);
    expect(config.plugins.entries.aop).toMatchObject({ enabled: true, hooks: { allowConversationAccess: true } });
    const inspect = await openclaw(["plugins", "inspect", "aop", "--runtime", "--json"]);
    expect(inspect.code, inspect.stderr).toBe(0);
    const report = JSON.parse(inspect.stdout.slice(inspect.stdout.indexOf("{"))) as { plugin: { status: string; origin: string }; typedHooks: { name: string }[] };
    expect(report.plugin).toMatchObject({ status: "loaded", origin: "workspace" });
    expect(report.typedHooks.map((h) => h.name).sort()).toEqual(["after_tool_call", "before_agent_finalize", "before_compaction", "before_prompt_build", "session_end", "session_start", "subagent_ended", "subagent_spawned"]);
  });

  it("one agent --local turn with a shell call, a failing read and an aop MCP call: each call once, the failure an error, markers, orientation", async () => {
    editConfig((config) => {
      config.models = { providers: { fake: { baseUrl: `${api.url}/v1`, apiKey: "offline-test-key", api: "openai-completions", models: [{ id: "fake-model", name: "fake", reasoning: false, input: ["text"], contextWindow: 131072, maxTokens: 8192 }] } } };
      config.agents = { ...config.agents, defaults: { ...(config.agents?.defaults as object), model: { primary: "fake/fake-model" } } };
      // Direct tool schemas: the stand-in calls tools by the names it is offered (Tool Search would hide aop's).
      config.tools = { ...config.tools, toolSearch: false };
    });
    // `agent --local` runs the embedded agent in the configured workspace with the plugins loaded
    // (`agent exec` runs without the workspace's plugins).
    const run = await openclaw(["agent", "--local", "--session-id", "claw-session-1", "--json", "-m", PROMPT], 240_000);
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const entries = allJoinedEntries(project);
    const { session, story } = clientSession(entries, "openclaw");
    expect(new Set(session.map((e) => e.run)).size).toBe(1);
    expect(story).toEqual(["session_start:first_prompt", "before_prompt_build", "exec", "read!", "before_agent_finalize"]);
    expect(session.find((e) => e.entry.tool_name === "exec")!.entry).toMatchObject({ result: "ok", transport: "hook:openclaw", mutating: true, operation_id: expect.stringMatching(/^call_fake_/) });
    expect(session.find((e) => e.entry.tool_name === "read")!.entry).toMatchObject({ error_code: "tool_error" });
    // aop's MCP tool: offered as aop__feature_init, recorded once, by `aop mcp`; the hook skipped it.
    const offered = new Set(api.requests.flatMap((r) => ((r.body.tools as { function?: { name?: string } }[] | undefined) ?? []).map((t) => t.function?.name)));
    expect(offered.has("aop__feature_init"), [...offered].join(", ")).toBe(true);
    const inits = entries.filter((e) => e.entry.tool_name === "feature.init");
    expect(inits.map((e) => [e.entry.operation_id, e.entry.result, e.entry.transport])).toEqual([["op-openclaw-01", "ok", "mcp"]]);
    expect(entries.some((e) => String(e.entry.tool_name).startsWith("aop__"))).toBe(false);
    // The orientation reached the model's system prompt.
    expect(JSON.stringify(api.requests.map((r) => r.body))).toContain("aop-continuity orientation");
  });

  it("OpenClaw's Gateway takes the scheduled doctor aop prints, once; running the job leaves the report", async () => {
    const port = await freePort();
    const token = "aop-test-gateway-token";
    // The Gateway's own settings are this test's set-up, not aop's next steps.
    editConfig((config) => {
      config.gateway = { ...config.gateway, mode: "local", auth: { token } };
    });
    const gateway: ChildProcess = spawn(node, [OPENCLAW!, "gateway", "run", "--port", String(port), "--bind", "loopback"], { cwd: project, env: { ...env, OPENCLAW_SKIP_CHANNELS: "1" }, stdio: ["ignore", "pipe", "pipe"] });
    let log = "";
    gateway.stdout!.on("data", (d: Buffer) => (log += d.toString()));
    gateway.stderr!.on("data", (d: Buffer) => (log += d.toString()));
    try {
      // eslint-disable-next-line no-control-regex
      await waitFor(() => /^\S* ?\[gateway\] ready\s*$/m.test(log.replace(/\u001b\[[0-9;]*m/g, "")), 180_000, () => log.slice(-2000));
      await waitFor(await listening(port), 60_000, () => log.slice(-2000));
      const r = runCli(["integrate", "openclaw", "--json"], { cwd: project });
      const cron = (JSON.parse(r.stdout) as { next_steps: string[] }).next_steps.flatMap((x) => x.split("\n")).find((l) => l.startsWith("openclaw cron add "))!;
      const add = () => spawnSync("/bin/sh", ["-c", `"$NODE" "$OPENCLAW" ${cron.slice("openclaw ".length)} --url ws://127.0.0.1:${port} --token ${token}`], { cwd: project, env: { ...env, NODE: node, OPENCLAW: OPENCLAW! }, encoding: "utf8", timeout: 120_000 });
      const first = add();
      expect(first.status, first.stderr).toBe(0);
      const created = JSON.parse(first.stdout) as { created: boolean; job: { id: string; payload: { kind: string; cwd: string }; delivery: { mode: string } } };
      expect(created).toMatchObject({ created: true, job: { payload: { kind: "command", cwd: project }, delivery: { mode: "none" } } });
      const second = JSON.parse(add().stdout) as { created: boolean; job: { id: string } };
      expect(second).toMatchObject({ created: false, job: { id: created.job.id } });
      const run = await openclaw(["cron", "run", created.job.id, "--url", `ws://127.0.0.1:${port}`, "--token", token]);
      expect(run.code, run.stderr).toBe(0);
      const report = path.join(project, "aop-doctor.json");
      await waitFor(() => fs.existsSync(report) && fs.readFileSync(report, "utf8").trim().endsWith("}"), 120_000, () => log.slice(-2000));
      expect(JSON.parse(fs.readFileSync(report, "utf8"))).toHaveProperty("summary");
    } finally {
      const exited = new Promise((resolve) => gateway.once("close", resolve));
      gateway.kill("SIGTERM");
      const timer = setTimeout(() => gateway.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A check that the port takes connections (polled by waitFor). */
async function listening(port: number): Promise<() => boolean> {
  let up = false;
  let trying = false;
  return () => {
    if (!up && !trying) {
      trying = true;
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => ((up = true), socket.destroy()));
      socket.once("error", () => (trying = false));
      socket.once("close", () => (trying = false));
    }
    return up;
  };
}

async function waitFor(done: () => boolean, timeoutMs: number, why: () => string): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > until) throw new Error(`timed out; last output:\n${why()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
