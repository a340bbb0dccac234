import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import "../helpers/workers-env.js";
import { runWorkers } from "../helpers/processes.js";
import { runCli, runJson } from "../helpers/cli.js";
import { tempWorkspace } from "../helpers/tmp.js";
import { opId, testRuntime } from "../helpers/runtime.js";
import type { ToolHandler } from "../../src/catalog/tool-types.js";
import { pipelineHandler } from "../../src/app/handler-registry.js";
import { handlers as featureHandlers } from "../../src/domains/features/tools.js";

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
