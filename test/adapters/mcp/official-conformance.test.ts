// The official MCP conformance suite (@modelcontextprotocol/conformance) against `aop mcp --http`: every
// server scenario runs; those that apply to aop must pass, and the rest are listed with the reason in
// conformance-baseline.yml (the suite itself fails a listed scenario that starts passing). The suite
// needs Node ≥ 22 (test/helpers/node22.ts; docs/mcp.md).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpServer, type HttpServer } from "../../helpers/mcp-http.js";
import { runCli } from "../../helpers/cli.js";
import { node22 } from "../../helpers/node22.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";
import { minimalCheckpoint } from "../../domains/checkpoints/fixture.js";

const require = createRequire(import.meta.url);
const SUITE = path.join(path.dirname(require.resolve("@modelcontextprotocol/conformance/package.json")), "dist", "index.js");
const BASELINE = path.join(path.dirname(fileURLToPath(import.meta.url)), "conformance-baseline.yml");
/** The scenarios that apply to aop: each must pass (not merely be absent from the baseline). */
const MUST_PASS = ["server-initialize", "ping", "logging-set-level", "completion-complete", "tools-list", "resources-list", "prompts-list", "server-sse-multiple-streams", "dns-rebinding-protection"];

const found = node22();
if ("why" in found) console.warn(`official MCP conformance suite skipped: ${found.why}`);

describe.skipIf("why" in found)("the official MCP conformance suite against aop mcp --http", () => {
  let server: HttpServer;
  let output = "";
  let status: number | null = null;

  beforeAll(async () => {
    const root = tempWorkspace();
    writeFile(root, ".checkpoints/architect.checkpoint.json", JSON.stringify(minimalCheckpoint("architect", { updated_at: new Date().toISOString() })));
    expect(runCli(["feature", "init", "feat_a", "--title", "Alpha", "--operation-id", "op-official-conf-1"], { cwd: root }).code).toBe(0);
    server = await startHttpServer(root);
    // The suite writes its results under ./results: a folder of its own.
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "aop-conformance-"));
    const r = spawnSync((found as { bin: string }).bin, [SUITE, "server", "--url", server.url, "--expected-failures", BASELINE], { cwd, encoding: "utf8", timeout: 120_000, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
    output = `${r.stdout}\n${r.stderr}`;
    status = r.status;
    fs.rmSync(cwd, { recursive: true, force: true });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("passes every scenario outside the baseline, and every baseline entry still fails", () => {
    expect(status, output.slice(-4000)).toBe(0);
  });

  it.each(MUST_PASS)("%s passes", (scenario) => {
    // eslint-disable-next-line no-control-regex
    const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
    expect(plain, plain.slice(-3000)).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
  });
});
