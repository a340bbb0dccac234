// The MCP Inspector 2.12's own portability check (`--cli --strict --method tools/list`) over every tool
// aop serves: no warning and no error. The Inspector needs Node ≥ 22 and brings a web UI's worth of
// dependencies, so .ci/run installs the pinned version into a throw-away prefix and names its launcher
// in AOP_TEST_INSPECTOR_BIN (docs/mcp.md); in CI the test must run.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI_BIN } from "../../helpers/paths.js";
import { node22 } from "../../helpers/node22.js";
import { runCli } from "../../helpers/cli.js";
import { tempWorkspace } from "../../helpers/tmp.js";

const INSPECTOR = process.env.AOP_TEST_INSPECTOR_BIN;

describe.skipIf(!INSPECTOR && !process.env.CI)("the MCP Inspector's --strict check of aop's tools", () => {
  it("lists every tool with no portability warning or error", () => {
    expect(INSPECTOR, "AOP_TEST_INSPECTOR_BIN names the Inspector's launcher (.ci/run installs it)").toBeTruthy();
    const node = node22();
    if ("why" in node) throw new Error(node.why);
    const root = tempWorkspace();
    const tools = (JSON.parse(runCli(["tools", "--json"], { cwd: root }).stdout) as { tools: unknown[] }).tools.length;
    const r = spawnSync(node.bin, [INSPECTOR as string, "--cli", "--strict", "--method", "tools/list", process.execPath, CLI_BIN, "mcp"], { cwd: root, encoding: "utf8", timeout: 120_000, env: { ...process.env, NO_COLOR: "1" } });
    expect(r.status, r.stderr).toBe(0);
    const listed = (JSON.parse(r.stdout) as { tools: { name: string }[] }).tools;
    expect(listed.length).toBeGreaterThan(10);
    expect(listed.length).toBe(tools);
    // The Inspector prints each problem as "Warning: tool …" / "Error: tool …" on stderr, and a count line.
    expect(r.stderr).not.toMatch(/Warning|Error|warnings? across/);
  }, 180_000);
});
