import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import "../helpers/workers-env.js";
import { runWorkers } from "../helpers/processes.js";
import { runCli, runJson } from "../helpers/cli.js";
import { tempWorkspace } from "../helpers/tmp.js";
import { opId, testRuntime } from "../helpers/runtime.js";
import type { PipelineHandler, ToolHandler, ToolName } from "../../src/catalog/tool-types.js";
import { pipelineHandler } from "../../src/app/pipeline-handler.js";
import { handlers as featureHandlers } from "../../src/domains/features/tools.js";
import { intentPath, recordPath } from "../../src/store/ledger-files.js";
import { AopError } from "../../src/core/errors.js";
import { requestHashOf } from "../../src/runtime/tool-runtime.js";

describe("idempotency ledger", () => {
  it("new → replay returns the identical envelope bytes and does not re-run the handler", async () => {
    let executions = 0;
    const counting: ToolHandler<"feature.init"> = async (args, ctx) => {
      executions += 1;
      return featureHandlers["feature.init"]!(args, ctx);
    };
    const { runtime, clock } = testRuntime({ handlerLoader: async () => pipelineHandler(counting) });
    const id = opId();
    const first = await runtime.callTool("feature.init", { feature_id: "f1", operation_id: id });
    clock.advance(60_000);
    const second = await runtime.callTool("feature.init", { feature_id: "f1", operation_id: id });
    expect(first.idempotency_status).toBe("new");
    expect(second.idempotency_status).toBe("replay");
    expect(second.envelope_json).toBe(first.envelope_json);
    expect(executions).toBe(1);
  });

  it("records error envelopes too, and replays them", async () => {
    const { runtime } = testRuntime();
    const id = opId();
    const first = await runtime.callTool("feature.set_status", { feature_id: "ghost", status: "blocked", operation_id: id });
    expect(first.envelope).toMatchObject({ ok: false, error: { code: "feature_not_found" } });
    await runtime.callTool("feature.init", { feature_id: "ghost", operation_id: opId() });
    const again = await runtime.callTool("feature.set_status", { feature_id: "ghost", status: "blocked", operation_id: id });
    expect(again.idempotency_status).toBe("replay");
    expect(again.envelope_json).toBe(first.envelope_json);
  });

  it("ignores argument key order when fingerprinting", async () => {
    const { runtime } = testRuntime();
    const id = opId();
    await runtime.callTool("feature.init", { feature_id: "k", title: "T", operation_id: id });
    const r = await runtime.callTool("feature.init", { operation_id: id, title: "T", feature_id: "k" });
    expect(r.idempotency_status).toBe("replay");
  });

  it("survives a restart: a new process replays the recorded envelope", () => {
    const root = tempWorkspace();
    const args = ["call", "feature.init", "--args", '{"feature_id":"persist"}', "--operation-id", "op-restart-0001", "--root", root, "--json"];
    const first = runCli(args);
    const second = runCli(args);
    expect(first.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const show = runJson<{ feature: { version: number } }>(["feature", "show", "persist", "--root", root]);
    expect(show.json.feature.version).toBe(1);
    const files = fs.readdirSync(path.join(root, ".aop", "runtime", "operation-ledger"), { recursive: true }).filter((f) => String(f).endsWith(".json"));
    expect(files).toHaveLength(1);
  });

  it("two processes racing on the same new operation id run the handler once", async () => {
    const root = tempWorkspace();
    const executions = path.join(root, "executions.txt");
    fs.writeFileSync(executions, "");
    const results = await runWorkers("idempotent-call.mjs", [0, 1, 2].map(() => [root, "op-race-000001", executions, "300"]));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(executions, "utf8").trim().split("\n")).toHaveLength(1);
    const outputs = results.map((r) => JSON.parse(r.stdout.trim().split("\n").pop()!) as { status: string; envelope_json: string });
    expect(outputs.map((o) => o.status).sort()).toEqual(["new", "replay", "replay"]);
    expect(new Set(outputs.map((o) => o.envelope_json)).size).toBe(1);
  });
});

describe("idempotency ledger: damage and interruptions", () => {
  it("a corrupt record is refused with file_corrupt naming its path; other operations go on", async () => {
    const { runtime, layout } = testRuntime();
    const id = opId("corrupt");
    await runtime.callTool("feature.init", { feature_id: "c1", operation_id: id });
    fs.writeFileSync(recordPath(layout, id), '{"operation_id": "x", "envelope_js');
    const r = await runtime.callTool("feature.init", { feature_id: "c1", operation_id: id });
    expect(r.envelope).toMatchObject({ ok: false, error: { code: "file_corrupt", details: { path: layout.relative(recordPath(layout, id)), operation_id: id } } });
    expect(!r.envelope.ok && r.envelope.error.message).toMatch(/idempotency record \.aop\/runtime\/operation-ledger\/[0-9a-f]{2}\/[0-9a-f]{64}\.json is not valid JSON/);
    expect((await runtime.callTool("feature.init", { feature_id: "c2", operation_id: opId() })).envelope.ok).toBe(true);
  });

  it("an intent whose first line was cut off never started: the call runs", async () => {
    const { runtime, layout } = testRuntime();
    const id = opId("torn-intent");
    fs.mkdirSync(path.dirname(intentPath(layout, id)), { recursive: true });
    fs.writeFileSync(intentPath(layout, id), '{"intent":{"operation_id":"');
    const r = await runtime.callTool("feature.init", { feature_id: "t1", operation_id: id });
    expect(r.envelope.ok).toBe(true);
    expect(fs.existsSync(intentPath(layout, id))).toBe(false);
  });

  it("an intent with a damaged line in the middle is refused with file_corrupt", async () => {
    const { runtime, layout } = testRuntime();
    const id = opId("bad-intent");
    fs.mkdirSync(path.dirname(intentPath(layout, id)), { recursive: true });
    fs.writeFileSync(intentPath(layout, id), `{"intent":{"request_hash":"x"}}\nnot json\n{"effect":{"kind":"scratch","path":"/x"}}\n`);
    const r = await runtime.callTool("feature.init", { feature_id: "t2", operation_id: id });
    expect(r.envelope).toMatchObject({ ok: false, error: { code: "file_corrupt", details: { path: layout.relative(intentPath(layout, id)) } } });
  });

  it("a result that cannot be recorded is reported, and the retry says operation_interrupted instead of running again", async () => {
    const id = opId("unrecordable");
    // After the change, the record's name is taken by a folder, so the record cannot be written.
    const blocking: PipelineHandler = async (args, ctx) => {
      const data = await pipelineHandler(featureHandlers[ctx.tool_name as ToolName]!)(args, ctx);
      if (ctx.operation_id === id) fs.mkdirSync(recordPath(ctx.layout, id), { recursive: true });
      return data;
    };
    const { runtime, layout } = testRuntime({ handlerLoader: async () => blocking });
    await runtime.callTool("feature.init", { feature_id: "r1", operation_id: opId() });
    const first = await runtime.callTool("feature.set_status", { feature_id: "r1", status: "blocked", operation_id: id });
    expect(first.envelope).toMatchObject({ ok: false, error: { details: { completed: true, recorded: false } } });
    expect(!first.envelope.ok && first.envelope.error.message).toMatch(/^feature\.set_status succeeded, but its result could not be recorded in the idempotency ledger/);
    fs.rmSync(recordPath(layout, id), { recursive: true });
    const retry = await runtime.callTool("feature.set_status", { feature_id: "r1", status: "blocked", operation_id: id });
    expect(retry.envelope).toMatchObject({ ok: false, error: { code: "operation_interrupted", details: { applied: [".aop/features/r1/state.md", ".aop/features/index.json"] } } });
    const show = await runtime.callTool("feature.get", { feature_id: "r1" });
    expect(show.envelope).toMatchObject({ ok: true, data: { feature: { version: 2, status: "blocked" } } });
  });

  it("an interrupted handler (operation_interrupted) is not recorded when nothing landed: the retry runs", async () => {
    let calls = 0;
    const interrupting: ToolHandler<"feature.init"> = async (args, ctx) => {
      calls += 1;
      if (calls === 1) throw new AopError("operation_interrupted", "stopped before doing anything");
      return featureHandlers["feature.init"]!(args, ctx);
    };
    const { runtime, layout } = testRuntime({ handlerLoader: async () => pipelineHandler(interrupting) });
    const id = opId("interrupted");
    const first = await runtime.callTool("feature.init", { feature_id: "i1", operation_id: id });
    expect(first.envelope).toMatchObject({ ok: false, error: { code: "operation_interrupted" } });
    expect(fs.existsSync(recordPath(layout, id))).toBe(false);
    expect(fs.existsSync(intentPath(layout, id))).toBe(false);
    const second = await runtime.callTool("feature.init", { feature_id: "i1", operation_id: id });
    expect(second).toMatchObject({ idempotency_status: "new", envelope: { ok: true } });
    expect(calls).toBe(2);
  });

  it.each(["file_corrupt", "not_a_regular_file", "file_too_large", "path_outside_workspace", "permission_denied"])(
    "a %s refusal raised before anything landed is not recorded: the retry after the repair runs",
    async (code) => {
      let calls = 0;
      const refusing: ToolHandler<"feature.init"> = async (args, ctx) => {
        calls += 1;
        if (calls === 1) throw new AopError(code as "file_corrupt", "a file the call needs is damaged");
        return featureHandlers["feature.init"]!(args, ctx);
      };
      const { runtime, layout } = testRuntime({ handlerLoader: async () => pipelineHandler(refusing) });
      const id = opId("refused");
      const first = await runtime.callTool("feature.init", { feature_id: "b1", operation_id: id });
      expect(first.envelope).toMatchObject({ ok: false, error: { code } });
      expect(fs.existsSync(recordPath(layout, id))).toBe(false);
      expect(fs.existsSync(intentPath(layout, id))).toBe(false);
      const second = await runtime.callTool("feature.init", { feature_id: "b1", operation_id: id });
      expect(second).toMatchObject({ idempotency_status: "new", envelope: { ok: true } });
      expect(calls).toBe(2);
    },
  );

  it("a file refusal raised after an effect landed is recorded and replayed like any answer", async () => {
    let calls = 0;
    const halfDone: ToolHandler<"feature.init"> = async (args, ctx) => {
      calls += 1;
      await featureHandlers["feature.init"]!(args, ctx);
      throw new AopError("file_corrupt", "damaged after the change");
    };
    const { runtime, layout } = testRuntime({ handlerLoader: async () => pipelineHandler(halfDone) });
    const id = opId("half");
    const first = await runtime.callTool("feature.init", { feature_id: "h1", operation_id: id });
    expect(first.envelope).toMatchObject({ ok: false, error: { code: "file_corrupt" } });
    expect(fs.existsSync(recordPath(layout, id))).toBe(true);
    const second = await runtime.callTool("feature.init", { feature_id: "h1", operation_id: id });
    expect(second.idempotency_status).toBe("replay");
    expect(calls).toBe(1);
  });
});

describe("idempotency ledger: an intent naming files outside the workspace", () => {
  it("is never trusted: nothing outside is removed or read as landed, and the retry refuses", async () => {
    const { runtime, layout } = testRuntime();
    const outside = path.join(tempWorkspace(), "precious.txt");
    fs.writeFileSync(outside, "keep me");
    const id = opId("outside");
    const args = { feature_id: "o1" };
    const intent = { operation_id: id, tool_name: "feature.init", request_hash: requestHashOf("feature.init", args), run_id: "r", session_id: null, actor_type: "orchestrator", feature_id: "o1", started_at: "2026-03-01T10:00:00.000Z", pid: 1, hostname: "h" };
    fs.mkdirSync(path.dirname(intentPath(layout, id)), { recursive: true });
    fs.writeFileSync(intentPath(layout, id), [{ intent }, { effect: { kind: "scratch", path: outside } }, { effect: { kind: "create", path: outside, after: "sha256:" + "0".repeat(64) } }].map((l) => JSON.stringify(l) + "\n").join(""));
    const r = await runtime.callTool("feature.init", { ...args, operation_id: id });
    expect(r.envelope).toMatchObject({ ok: false, error: { code: "operation_interrupted" } });
    expect(fs.readFileSync(outside, "utf8")).toBe("keep me");
  });
});
