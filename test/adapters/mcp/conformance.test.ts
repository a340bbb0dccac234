// `aop mcp` against three MCP clients that are not ours (docs/kernel.md "MCP conformance"): the SDK
// 1.x client, the SDK 2.x client and the MCP Inspector CLI 0.15. Each one lists and calls tools, gets
// a readable tool error, an unknown tool as -32602, and reads resources and prompts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCatalog, mcpToolName } from "../../../src/catalog/catalog.js";
import { runCli } from "../../helpers/cli.js";
import { inspectorClient, sdk1Client, sdk2Client, type ConformanceClient, type Outcome } from "../../helpers/mcp-clients.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";
import { minimalCheckpoint } from "../../domains/checkpoints/fixture.js";

const STATE = "# Current State\n\n## Objective\nShip the refund flow\n\n## Current Step\nRefund handler\n\n## Key Decisions\n- Stripe\n\n## Next Action\nWrite the refund handler test\n\n## Blockers\nNone\n\n## Unsurfaced Results\nNone\n";

function seedWorkspace(): string {
  const root = tempWorkspace();
  writeFile(root, "memory/CURRENT_STATE.md", STATE);
  writeFile(root, ".checkpoints/architect.checkpoint.json", JSON.stringify(minimalCheckpoint("architect", { updated_at: new Date().toISOString(), skill_state: { private: "only for architect" } })));
  expect(runCli(["feature", "init", "feat_a", "--title", "Alpha", "--operation-id", "op-conformance-01", "--run-id", "run-seed"], { cwd: root }).code).toBe(0);
  expect(runCli(["doctor"], { cwd: root }).code).toBeLessThan(3);
  return root;
}

function value<T>(o: Outcome<T>): T {
  if ("error" in o) throw new Error(`expected a result, got MCP error ${o.error.code}: ${o.error.message}`);
  return o.value;
}

function failure<T>(o: Outcome<T>): { code: number; message: string } {
  if (!("error" in o)) throw new Error(`expected an MCP error, got ${JSON.stringify(o.value).slice(0, 300)}`);
  return o.error;
}

const drivers: [string, (root: string) => Promise<ConformanceClient>][] = [
  ["SDK 1.x client", (root) => sdk1Client(root)],
  ["SDK 2.x client", (root) => sdk2Client(root)],
  ["MCP Inspector CLI 0.15", async (root) => inspectorClient(root)],
];

describe.each(drivers)("aop mcp with the %s", (_name, connect) => {
  let root: string;
  let client: ConformanceClient;

  beforeAll(async () => {
    root = seedWorkspace();
    client = await connect(root);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("tools/list lists every catalog tool", async () => {
    const { tools } = value(await client.listTools());
    expect(tools.map((t) => t.name).sort()).toEqual(loadCatalog().tools.map((t) => mcpToolName(t.name)).sort());
  });

  it("a success carries the data (structuredContent, valid for the client) and the envelope as text", async () => {
    await client.listTools(); // SDK 1.x validates structuredContent only once it has the schemas
    const r = value(await client.callTool("feature_get", { feature_id: "feat_a" }));
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ feature: { feature_id: "feat_a", title: "Alpha" } });
    expect(JSON.parse(r.content[0]!.text!)).toEqual({ ok: true, data: r.structuredContent });
  });

  it("a tool error is a result the client reads: isError, aop's code and message in the text", async () => {
    await client.listTools();
    const r = value(await client.callTool("feature_get", { feature_id: "feat_nope" }));
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toBeUndefined();
    expect(r.content[0]!.text).toBe("Error feature_not_found: feature 'feat_nope' does not exist");
    const envelope = JSON.parse(r.content[1]!.text!) as { ok: boolean; error: { code: string; message: string } };
    expect(envelope).toMatchObject({ ok: false, error: { code: "feature_not_found", message: "feature 'feat_nope' does not exist" } });
  });

  it("an unknown tool is JSON-RPC error -32602 naming the tool", async () => {
    const e = failure(await client.callTool("no_such_tool", {}));
    expect(e.code).toBe(-32602);
    expect(e.message).toMatch(/Unknown tool: no_such_tool/);
  });

  it("resources/list and resources/templates/list; resources/read of the orientation, the state and a checkpoint", async () => {
    const { resources } = value(await client.listResources());
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(expect.arrayContaining(["aop://orientation", "aop://state/current", "aop://doctor/last-report", "aop://checkpoints/architect", "aop://replay/run-seed"]));
    const { resourceTemplates } = value(await client.listResourceTemplates());
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(["aop://checkpoints/{skill}", "aop://replay/{run_id}"]);

    const orientation = value(await client.readResource("aop://orientation")).contents[0]!;
    expect(orientation.text).toMatch(/^aop-continuity orientation/);
    expect(orientation.text).toMatch(/Objective: Ship the refund flow/);
    expect(orientation.text).toMatch(/Checkpoint architect \(in_progress/);
    expect(value(await client.readResource("aop://state/current")).contents[0]!.text).toBe(STATE);
    const checkpoint = JSON.parse(value(await client.readResource("aop://checkpoints/architect")).contents[0]!.text!) as Record<string, unknown>;
    expect(checkpoint).toMatchObject({ skill: "architect", status: "in_progress" });
    expect(checkpoint).not.toHaveProperty("skill_state");
    const replay = JSON.parse(value(await client.readResource("aop://replay/run-seed")).contents[0]!.text!) as { entries: { tool_name: string }[] };
    expect(replay.entries.map((e) => e.tool_name)).toEqual(["feature.init"]);
    expect(JSON.parse(value(await client.readResource("aop://doctor/last-report")).contents[0]!.text!)).toHaveProperty("summary");
  });

  it("a resource that does not exist is an MCP error", async () => {
    const e = failure(await client.readResource("aop://checkpoints/ghost"));
    expect(e.code).toBe(-32602);
    expect(e.message).toMatch(/Resource not found: aop:\/\/checkpoints\/ghost/);
  });

  it("prompts/list and prompts/get for resume (with a skill) and handoff", async () => {
    const { prompts } = value(await client.listPrompts());
    expect(prompts.map((p) => p.name)).toEqual(["resume", "handoff"]);
    expect(prompts[0]!.arguments).toEqual([expect.objectContaining({ name: "skill", required: false })]);
    const resume = value(await client.getPrompt("resume", { skill: "architect" }));
    const texts = resume.messages.map((m) => m.content.text ?? m.content.resource?.text ?? "");
    expect(texts[0]).toMatch(/Resume the 'architect' skill/);
    expect(resume.messages[1]!.content.resource?.uri).toBe("aop://orientation");
    expect(texts.join("\n")).toMatch(/## Resume: architect — shop-api[\s\S]*Write the refund handler/);
    const handoff = value(await client.getPrompt("handoff", {}));
    expect(handoff.messages[0]!.content.text).toMatch(/Objective now reads: Ship the refund flow/);
    expect(failure(await client.getPrompt("resume", { skill: "ghost" })).code).toBe(-32602);
  });
});
