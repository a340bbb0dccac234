// A plain `aop mcp` runs from a one-file bundle (scripts/bundle-bins.mjs, docs/startup.md) with the
// body commander runs (mcp-serve.ts). The same session must get the same answers, and leave the same
// records, through the bundle, the modular build it falls back to and the commander program.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseFastMcp } from "../../../src/adapters/cli/mcp-fast-path.js";
import { CLI_BIN, distUrl, REPO_ROOT } from "../../helpers/paths.js";
import { packageCopy } from "../../helpers/package-copy.js";
import { tempWorkspace } from "../../helpers/tmp.js";

const BUNDLE = path.join("dist", "mcp-cli", "fast-path.bundle.cjs");

describe("parseFastMcp", () => {
  it.each([
    [["mcp"], {}],
    [["--root", "/w", "mcp"], { root: "/w" }],
    [["mcp", "--root=/w", "--checkpoints-dir", "c", "--actor", "qa", "--session-id", "s", "--run-id", "r"], { root: "/w", checkpointsDir: "c", actor: "qa", sessionId: "s", runId: "r" }],
    [["mcp", "--transport", "inprocess"], { transport: "inprocess" }],
  ])("takes %j", (argv, opts) => {
    expect(parseFastMcp(argv)).toEqual(opts);
  });

  it.each([[["mcp", "--help"]], [["--checkpoints-dir", "c", "mcp"]], [["mcp", "--json"]], [["mcp", "--transport", "mcp"]], [["mcp", "extra"]], [["mcp", "--bogus"]], [["mcp", "--root"]], [["tools"]]])("leaves %j to the full program", (argv) => {
    expect(parseFastMcp(argv)).toBeNull();
  });
});

const SESSION = [
  { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "routes", version: "1" } } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
  { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "feature_init", arguments: { feature_id: "feat_r", title: "Routes", operation_id: "op-routes-0001" } } },
  { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "feature_get", arguments: { feature_id: "nope" } } },
  { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "no_such_tool", arguments: {} } },
  { jsonrpc: "2.0", id: 6, method: "resources/read", params: { uri: "aop://orientation" } },
];

/** Runs the session against `node <args>`, one request at a time, and returns what it wrote to stdout and the exit code. */
function session(args: string[], root: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", AOP_NOW: "2026-03-01T10:00:00.000Z" };
    for (const key of Object.keys(env)) if (key.startsWith("AOP_") && key !== "AOP_NOW") delete env[key];
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["pipe", "pipe", "ignore"] });
    let stdout = "";
    let next = 0;
    // Up to the next request (notifications need no answer); the client goes after the last answer.
    const send = () => {
      while (next < SESSION.length) {
        const message = SESSION[next++]!;
        child.stdin.write(JSON.stringify(message) + "\n");
        if ("id" in message) return;
      }
      child.stdin.end();
    };
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      const last = SESSION[next - 1] as { id?: number };
      if (stdout.includes(`"id":${last.id}}`) || stdout.includes(`"id":${last.id},`)) send();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout }));
    send();
  });
}

describe("aop mcp: the bundled route serves what the other routes serve", () => {
  let modular: string;
  beforeAll(() => {
    if (!fs.existsSync(path.join(REPO_ROOT, BUNDLE))) throw new Error(`${BUNDLE} is missing: run \`node scripts/build.mjs\` first`);
    modular = path.join(packageCopy((pkg) => fs.rmSync(path.join(pkg, BUNDLE))), "bin", "aop.js");
  });

  it("a session of handshake, list, calls (a write, an error, an unknown tool) and a resource", async () => {
    const program = `const { main } = await import(${JSON.stringify(distUrl("adapters/cli/main.js"))}); await main(process.argv.slice(1));`;
    const routes: [string, string[]][] = [
      ["bundle", [CLI_BIN, "mcp"]],
      ["modular build", [modular, "mcp"]],
      ["commander program", ["--input-type=module", "-e", program, "--", "mcp"]],
    ];
    const results = [];
    for (const [route, args] of routes) {
      const root = tempWorkspace();
      const { code, stdout } = await session(args, root);
      const state = fs.readFileSync(path.join(root, ".aop", "features", "feat_r", "state.md"), "utf8");
      const timeline = fs.readFileSync(path.join(root, ".aop", "runtime", "replay", "adhoc-2026-03-01.timeline.jsonl"), "utf8").replace(/"latency_ms":[\d.]+/g, '"latency_ms":0');
      results.push({ route, code, answers: stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as { id?: number }).sort((a, b) => (a.id ?? 0) - (b.id ?? 0)), state, timeline });
    }
    const [expected] = results;
    expect(expected!.code).toBe(0);
    expect(expected!.answers.map((a) => a.id)).toEqual([1, 2, 3, 4, 5, 6]);
    for (const r of results) expect({ ...r, route: "" }, r.route).toEqual({ ...expected, route: "" });
  }, 60_000);
});
