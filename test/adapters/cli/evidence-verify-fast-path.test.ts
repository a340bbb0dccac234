// `aop evidence verify` runs from a one-file bundle (scripts/bundle-bins.mjs, docs/startup.md) with the
// body commander runs (evidence/verify-command.ts). Every route must print the same report, exit the
// same way and leave the same records.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parseFastVerify } from "../../../src/adapters/cli/evidence-verify-fast-path.js";
import { buildChain, gateWorkspace } from "../../helpers/gates.js";
import { packageCopy } from "../../helpers/package-copy.js";
import { CLI_BIN, distUrl, REPO_ROOT } from "../../helpers/paths.js";

const BUNDLE = path.join("dist", "evidence-cli", "verify.bundle.cjs");

describe("parseFastVerify", () => {
  it.each([
    [["evidence", "verify", "--feature-id", "f"], { featureId: "f" }],
    [["--root", "/w", "evidence", "verify", "--all", "--json"], { root: "/w", all: true, json: true }],
    [["evidence", "verify", "--feature-id=f", "--anchor", "a.note", "--actor", "qa", "--transport", "inprocess"], { featureId: "f", anchor: "a.note", actor: "qa", transport: "inprocess" }],
  ])("takes %j", (argv, opts) => {
    expect(parseFastVerify(argv)).toEqual(opts);
  });

  it.each([[["evidence", "verify", "--help"]], [["--feature-id", "f", "evidence", "verify"]], [["evidence", "verify", "--transport", "mcp"]], [["evidence", "verify", "extra"]], [["evidence", "verify", "--bogus"]], [["evidence", "latest", "--feature-id", "f"]], [["evidence", "verify", "--feature-id"]]])("leaves %j to the full program", (argv) => {
    expect(parseFastVerify(argv)).toBeNull();
  });
});

function run(args: string[], env: Record<string, string> = {}) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", AOP_NOW: "2026-03-01T10:00:00.000Z", ...env };
  for (const key of ["AOP_ROOT", "AOP_RUN_ID", "AOP_SESSION_ID", "AOP_ACTOR"]) delete childEnv[key];
  const r = spawnSync(process.execPath, args, { encoding: "utf8", env: childEnv, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("aop evidence verify: the bundled route prints what the other routes print", () => {
  let modular: string;
  beforeAll(() => {
    if (!fs.existsSync(path.join(REPO_ROOT, BUNDLE))) throw new Error(`${BUNDLE} is missing: run \`node scripts/build.mjs\` first`);
    modular = path.join(packageCopy((pkg) => fs.rmSync(path.join(pkg, BUNDLE))), "bin", "aop.js");
  });

  it("valid, tampered, --all and a usage error: same output, exit code and timeline", async () => {
    const program = `const { main } = await import(${JSON.stringify(distUrl("adapters/cli/main.js"))}); await main(process.argv.slice(1));`;
    const routes: [string, string[]][] = [
      ["bundle", [CLI_BIN]],
      ["modular build", [modular]],
      ["commander program", ["--input-type=module", "-e", program, "--"]],
    ];
    const results = [];
    for (const [route, bin] of routes) {
      const ws = await gateWorkspace();
      const runs = await buildChain(ws.layout, ws.clock, "feat_a", 4);
      await buildChain(ws.layout, ws.clock, "feat_b", 3);
      const at = (...args: string[]) => run([...bin, "--root", ws.root, ...args]);
      const outputs = [at("evidence", "verify", "--feature-id", "feat_a"), at("evidence", "verify", "--all", "--json")];
      fs.writeFileSync(ws.layout.resolveInside(runs[2]!.rel_path)!, "changed");
      outputs.push(at("evidence", "verify", "--feature-id", "feat_a", "--json"), at("evidence", "verify", "--all"), at("evidence", "verify"), at("evidence", "verify", "--feature-id", "../x", "--json"));
      const replay = path.join(ws.root, ".aop", "runtime", "replay");
      const timeline = fs
        .readdirSync(replay)
        .filter((n) => n.endsWith(".timeline.jsonl"))
        .map((n) => fs.readFileSync(path.join(replay, n), "utf8").replace(/"latency_ms":[\d.]+/g, '"latency_ms":0'));
      results.push({ route, outputs: outputs.map((o) => ({ ...o, stdout: o.stdout.replaceAll(ws.root, "<root>"), stderr: o.stderr.replaceAll(ws.root, "<root>") })), timeline });
    }
    const [expected] = results;
    expect(expected!.outputs.map((o) => o.code)).toEqual([0, 0, 1, 1, 2, 1]);
    for (const r of results) expect({ ...r, route: "" }, r.route).toEqual({ ...expected, route: "" });
  }, 120_000);
});
