import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runJson } from "../../helpers/cli.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";
import { mcpClient, type McpToolClient } from "../../../src/app/clients/mcp.js";

function tree(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true }).map(String).filter((p) => !p.includes(`${path.sep}.git`) && p !== ".git").sort();
}

describe("kernel through the CLI, in-process and --transport mcp", () => {
  for (const transport of ["inprocess", "mcp"]) {
    it(`feature and run lifecycle works with --transport ${transport}`, () => {
      const root = tempWorkspace();
      const t = ["--transport", transport, "--root", root];
      expect(runCli(["feature", "init", "feat_x", "--title", "X", ...t]).stdout).toMatch(/created feature feat_x \(active, version 1\)/);
      expect(runCli(["feature", "list", ...t]).stdout).toMatch(/feat_x\s+active\s+1/);
      expect(runCli(["feature", "set-status", "feat_x", "blocked", "--expected-version", "1", ...t]).stdout).toMatch(/feat_x: active → blocked \(version 2\)/);
      const conflict = runCli(["feature", "set-status", "feat_x", "merged", "--expected-version", "1", ...t]);
      expect(conflict.code).toBe(1);
      expect(conflict.stderr).toMatch(/^error version_conflict: /);
      expect(runCli(["run", "start", "--new-run-id", "run:cli", "--owner", "me", ...t]).stdout).toMatch(/run run:cli acquired by me/);
      expect(runJson<{ state: string }>(["run", "status", ...t]).json.state).toBe("active");
      expect(runCli(["run", "heartbeat", ...t]).code).toBe(0);
      expect(runCli(["run", "stop", ...t]).stdout).toMatch(/run run:cli released at/);
      expect(runCli(["run", "status", ...t]).stdout).toMatch(/released/);
    }, 60_000);
  }

  it("aop tools lists the catalog and --write-docs regenerates tools.md", () => {
    const root = tempWorkspace();
    expect(runCli(["tools"]).stdout).toMatch(/feature\.init\s+feature_init\s+M/);
    const r = runJson<{ written: string }>(["tools", "--write-docs", "--root", root]);
    expect(r.json.written).toBe("agentic/orchestrator/tools.md");
    expect(fs.readFileSync(path.join(root, "agentic/orchestrator/tools.md"), "utf8")).toMatch(/\| `run.start` \| `run_start` \| yes \|/);
  });

  it("aop call gives mutating calls a fresh operation id unless one is given", () => {
    const root = tempWorkspace();
    const a = runJson<{ ok: boolean }>(["call", "feature.init", "--args", '{"feature_id":"one"}', "--root", root]);
    expect(a.json.ok).toBe(true);
    const b = runJson<{ ok: boolean; error: { code: string } }>(["call", "feature.init", "--args", '{"feature_id":"one"}', "--root", root]);
    expect(b.json.error.code).toBe("feature_already_exists");
    expect(b.code).toBe(1);
  });
});

describe("bad input through the CLI and MCP: clear codes, nothing written outside .aop/", () => {
  let root: string;
  let client: McpToolClient;
  let outsideBefore: string[];
  const outside = tempDir("aop-outside-");

  beforeAll(async () => {
    root = path.join(outside, "ws");
    fs.mkdirSync(path.join(root, ".git"), { recursive: true });
    runCli(["init", "--root", root]);
    runCli(["feature", "init", "keep", "--root", root]);
    outsideBefore = fs.readdirSync(outside);
    client = await mcpClient({ root, stderr: "pipe" });
  });
  afterAll(async () => client?.close());

  it("rejects traversal ids", async () => {
    const cli = runJson<{ error: { code: string; message: string } }>(["feature", "init", "../../etc", "--root", root]);
    expect(cli.json.error.code).toBe("invalid_argument");
    expect(cli.json.error.message).toMatch(/feature_id/);
    const mcp = await client.callTool("feature.init", { feature_id: "../../etc", operation_id: "op-bad-000001" });
    expect(mcp.envelope).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
  });

  it("rejects an unknown tool", async () => {
    expect(runCli(["call", "feature.explode", "--root", root]).stderr).toMatch(/^error unknown_tool: unknown tool 'feature.explode'/);
    expect((await client.callTool("feature.explode", {})).envelope).toMatchObject({ ok: false, error: { code: "unknown_tool" } });
  });

  it("rejects wrong types", async () => {
    const cli = runJson<{ error: { code: string; details: { errors: { path: string }[] } } }>(["call", "feature.set_status", "--args", '{"feature_id":"keep","status":7}', "--root", root]);
    expect(cli.json.error.code).toBe("invalid_argument");
    expect(cli.json.error.details.errors[0]!.path).toBe("status");
    expect((await client.callTool("feature.list", { status: ["active"] })).envelope).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
  });

  it("rejects a mutating call without operation_id over MCP", async () => {
    expect((await client.callTool("feature.init", { feature_id: "nope" })).envelope).toMatchObject({ ok: false, error: { code: "operation_id_required" } });
  });

  it("rejects a 5 MB argument string", async () => {
    const big = path.join(outside, "big.json");
    fs.writeFileSync(big, JSON.stringify({ feature_id: "huge", description: "x".repeat(5 * 1024 * 1024) }));
    const cli = runJson<{ error: { code: string } }>(["call", "feature.init", "--args", `@${big}`, "--root", root]);
    expect(cli.json.error.code).toBe("payload_too_large");
    const mcp = await client.callTool("feature.init", { feature_id: "huge", description: "x".repeat(5 * 1024 * 1024), operation_id: "op-big-000001" });
    expect(mcp.envelope).toMatchObject({ ok: false, error: { code: "payload_too_large" } });
    fs.rmSync(big);
  });

  it("rejects invalid JSON in --args without a stack trace", () => {
    const r = runCli(["call", "feature.get", "--args", "{not json", "--root", root]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error invalid_argument: --args is not valid JSON/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(runCli(["call", "feature.get", "--args", "@/no/such/file.json", "--root", root]).stderr).toMatch(/--args file \/no\/such\/file\.json does not exist/);
  });

  it("left the index unchanged and wrote nothing outside .aop/", () => {
    const index = JSON.parse(fs.readFileSync(path.join(root, ".aop/features/index.json"), "utf8"));
    expect(index).toMatchObject({ active: ["keep"], blocked: [], merged: [] });
    expect(fs.readdirSync(outside).sort()).toEqual(outsideBefore.sort());
    expect(tree(root).filter((p) => !p.startsWith(".aop") && !p.startsWith("agentic"))).toEqual([]);
  });
});
