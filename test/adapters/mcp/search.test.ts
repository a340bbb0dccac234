// replay.search served over MCP (as `replay_search`): the same hits as the CLI's in-process call, the
// catalog's schemas advertised, a bad argument an isError result carrying aop's envelope.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpClient, type McpToolClient } from "../../../src/app/clients/mcp.js";
import { readSchemaDocument } from "../../../src/catalog/catalog.js";
import { runCli, runJson } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/tmp.js";

let root: string;
let client: McpToolClient;

beforeAll(async () => {
  root = tempDir("aop-mcp-search-");
  fs.mkdirSync(path.join(root, ".git"));
  const ok = (args: string[]) => expect(runCli(args, { cwd: root }).code).toBe(0);
  ok(["init"]);
  ok(["--run-id", "run:one", "feature", "init", "login-page"]);
  ok(["--run-id", "run:one", "feature", "init", "billing"]);
  expect(runCli(["--run-id", "run:two", "feature", "set-status", "billing", "merged", "--expected-version", "7"], { cwd: root }).code).not.toBe(0);
  client = await mcpClient({ root, env: { ...process.env, AOP_RUN_ID: "run:mcp-searches" }, stderr: "pipe" });
}, 60_000);

afterAll(async () => {
  await client?.close();
});

type Hit = { run_id?: string };
const scripted = (hits: Hit[]) => hits.filter((h) => h.run_id === "run:one" || h.run_id === "run:two");

describe("replay.search over MCP", () => {
  it("is listed as replay_search with the catalog's schemas", async () => {
    const tool = (await client.rawListTools()).find((t) => t.name === "replay_search");
    expect(tool).toBeDefined();
    const { $id: _id, $schema: _schema, ...input } = readSchemaDocument("schemas/input/replay.search.json") as Record<string, unknown>;
    expect(tool!.inputSchema).toEqual(input);
  });

  it("answers with the hits the in-process call finds", async () => {
    for (const args of [{ query: "billing" }, { query: "", result: "error" }, { query: "login", kinds: ["step"] }, { query: "version 7" }]) {
      const over = await client.callTool("replay.search", args);
      expect(over.envelope.ok, JSON.stringify(over.envelope)).toBe(true);
      const data = (over.envelope as { ok: true; data: { hits: Hit[] } }).data;
      const cli = ["--run-id", "run:cli-searches", "call", "replay.search", "--args", JSON.stringify(args)];
      const local = runJson<{ ok: true; data: { hits: Hit[] } }>(cli, { cwd: root });
      expect(local.code, local.stderr).toBe(0);
      expect(scripted(data.hits).length).toBeGreaterThan(0);
      expect(scripted(data.hits)).toEqual(scripted(local.json.data.hits));
    }
    const conflict = (await client.callTool("replay.search", { query: "version 7" })).envelope as { ok: true; data: { hits: { tool_name: string; snippet: string }[] } };
    expect(conflict.data.hits[0]).toMatchObject({ tool_name: "feature.set_status" });
    expect(conflict.data.hits[0]!.snippet).toMatch(/^version_conflict: .*not 7/);
  });

  it("refuses a bad argument with an isError result carrying the envelope", async () => {
    const raw = (await client.rawCall("replay_search", { query: "x", since: "last tuesday" })) as { isError?: boolean; content: { text: string }[] };
    expect(raw.isError).toBe(true);
    expect(raw.content[0]!.text).toMatch(/^Error invalid_argument: since must be an ISO date or time/);
    expect(JSON.parse(raw.content.at(-1)!.text)).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
    const schema = (await client.rawCall("replay_search", { query: "x", limit: 0 })) as { isError?: boolean; content: { text: string }[] };
    expect(schema.isError).toBe(true);
  });
});
