import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listedSubcommands, runCli, runJson } from "../../helpers/cli.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";
import { REPO_ROOT } from "../../helpers/paths.js";

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };

function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else out[path.relative(root, full)] = fs.readFileSync(full, "utf8");
    }
  };
  walk(root);
  return out;
}

describe("aop CLI foundation", () => {
  it("--version prints the package version on its first line", () => {
    const r = runCli(["--version"]);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe(pkg.version);
  });

  it("--help lists commands and exits 0", () => {
    const r = runCli(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: aop/);
    expect(r.stdout).toMatch(/init/);
    expect(r.stdout).toMatch(/config/);
  });

  it.each([[[]], [["--help"]], [["-h"]], [["help"]]])("the program's help for %j: the usage and the quick start, exit 0", (argv) => {
    const r = runCli(argv);
    expect(r.code).toBe(0);
    expect(r.stdout + r.stderr).toMatch(/^Usage: aop \[options\] \[command\]/);
    expect(r.stdout + r.stderr).toMatch(/Every command has --help with an example/);
  });

  it("`aop help <command>` and `aop <command> --help` print the command's help, with its own flags", () => {
    const r = runCli(["help", "replay"]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toMatch(/^Usage: aop replay \[options\]/);
    expect(r.stdout).toMatch(/--from-sequence <n>/);
    expect(runCli(["replay", "--help"])).toEqual(r);
    expect(runCli(["--root", "/nowhere", "replay", "--help"]).stdout).toBe(r.stdout);
  });

  it("every command and subcommand's --help shows an example", () => {
    const commandsIn = (help: string) => listedSubcommands(help).filter((c) => c !== "help");
    // Each help is printed once: a command's own help both lists its subcommands and is checked.
    const helps = new Map<string, ReturnType<typeof runCli>>();
    const help = (args: string[]) => {
      const key = args.join(" ");
      if (!helps.has(key)) helps.set(key, runCli([...args, "--help"]));
      return helps.get(key)!;
    };
    const top = commandsIn(help([]).stdout);
    expect(top.length).toBeGreaterThan(10);
    const all = top.flatMap((c) => [[c], ...commandsIn(help([c]).stdout).map((sub) => [c, sub])]);
    for (const args of all) {
      const r = help(args);
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.stdout, args.join(" ")).toMatch(/Examples?:\n {2}\$ /);
    }
  }, 120_000);

  it("an unknown command is a usage error (exit 2)", () => {
    const r = runCli(["frobnicate"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error usage_error: unknown command 'frobnicate'/);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
  });

  it("an unknown command's --help is the same usage error, at every level; a known one's help still shows", () => {
    for (const args of [["frobnicate", "--help"], ["feature", "frob", "--help"], ["--help", "frobnicate"], ["help", "frobnicate"]]) {
      const r = runCli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout, args.join(" ")).toBe("");
      expect(r.stderr, args.join(" ")).toMatch(/^error usage_error: unknown command 'frob(nicate)?'/);
    }
    const known = runCli(["feature", "list", "--help"]);
    expect(known.code).toBe(0);
    expect(known.stdout).toMatch(/^Usage: aop feature list/);
  });

  it("a command made of subcommands, given none, shows its help on stderr and is a usage error (exit 2)", () => {
    for (const args of [["feature"], ["sync"], ["evidence", "--root", "."]]) {
      const r = runCli(args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stdout, args.join(" ")).toBe("");
      expect(r.stderr, args.join(" ")).toMatch(new RegExp(`^Usage: aop ${args[0]} \\[options\\] \\[command\\]`));
      expect(r.stderr.trimEnd().split("\n").slice(-2), args.join(" ")).toEqual([`error usage_error: \`aop ${args[0]}\` needs a subcommand`, `hint: run \`aop ${args[0]} --help\` for its subcommands`]);
    }
    const json = runCli(["feature", "--json"]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: "usage_error", message: "`aop feature` needs a subcommand" } });
  });

  it("an unknown option is a usage error, also as JSON envelope", () => {
    const r = runCli(["init", "--bogus", "--json"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { code: "usage_error" } });
  });

  it("init twice: the second run changes nothing", () => {
    const root = tempWorkspace();
    const first = runJson<{ created: string[]; kept: string[] }>(["init", "--root", root]);
    expect(first.code).toBe(0);
    expect(first.json.created).toEqual(expect.arrayContaining(["agentic/orchestrator/policy.yaml", "agentic/orchestrator/aop.yaml", "agentic/orchestrator/gates.yaml", ".aop/features/index.json"]));
    const before = snapshot(root);
    const second = runJson<{ created: string[]; kept: string[] }>(["init", "--root", root]);
    expect(second.json.created).toEqual([]);
    expect(second.json.kept).toEqual(expect.arrayContaining(["agentic/orchestrator/policy.yaml"]));
    expect(snapshot(root)).toEqual(before);
    expect(fs.statSync(path.join(root, ".aop", "runtime")).mode & 0o777).toBe(0o700);
  });

  it("init gives the workspace an id in .aop/workspace.json and keeps it, also with --force; a copy gets its own", () => {
    const root = tempWorkspace();
    const first = runJson<{ created: string[]; workspace_id: string }>(["init", "--root", root]);
    expect(first.json.created).toContain(".aop/workspace.json");
    expect(first.json.workspace_id).toMatch(/^[0-9a-f]{32}$/);
    const kept = runCli(["init", "--force"], { cwd: root });
    expect(kept.stdout).toMatch(/kept\s+\.aop\/workspace\.json/);
    expect(JSON.parse(fs.readFileSync(path.join(root, ".aop", "workspace.json"), "utf8"))).toMatchObject({ workspace_id: first.json.workspace_id });
    const copy = path.join(tempWorkspace(), "copy");
    fs.cpSync(root, copy, { recursive: true });
    const renewed = runCli(["init"], { cwd: copy });
    expect(renewed.code, renewed.stderr).toBe(0);
    expect(renewed.stdout).toMatch(/renewed\s+\.aop\/workspace\.json {2}\(the workspace was copied or moved from another path or host: new workspace id\)/);
    expect(JSON.parse(fs.readFileSync(path.join(copy, ".aop", "workspace.json"), "utf8"))).toMatchObject({ previous_id: first.json.workspace_id });
    fs.writeFileSync(path.join(copy, ".aop", "workspace.json"), "{torn");
    const regenerated = runJson<{ renewed: string[] }>(["init", "--root", copy]);
    expect(regenerated.code).toBe(0);
    expect(regenerated.json.renewed).toEqual([".aop/workspace.json"]);
    expect(regenerated.stderr).toMatch(/^warning: \.aop\/workspace\.json is not JSON; wrote a new workspace id/m);
    expect(regenerated.stderr).not.toMatch(/\n\s+at /);
  });

  it("init next to an existing policy leaves it alone, and --force replaces it", () => {
    const root = tempWorkspace();
    const mine = "version: 1\nlocks:\n  lease_ttl_seconds: 60\n";
    writeFile(root, "agentic/orchestrator/policy.yaml", mine);
    const r = runCli(["init"], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/kept\s+agentic\/orchestrator\/policy\.yaml/);
    expect(fs.readFileSync(path.join(root, "agentic/orchestrator/policy.yaml"), "utf8")).toBe(mine);
    const forced = runJson<{ overwritten: string[] }>(["init", "--force"], { cwd: root });
    expect(forced.json.overwritten).toContain("agentic/orchestrator/policy.yaml");
  });

  it("config check passes on a fresh init", () => {
    const root = tempWorkspace();
    runCli(["init"], { cwd: root });
    const r = runCli(["config", "check"], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/policy\s+ok/);
  });

  it("config check on a broken policy exits 1 and names the path", () => {
    const root = tempWorkspace();
    writeFile(root, "agentic/orchestrator/policy.yaml", "observability:\n  replay:\n    write_mode: sometimes\n");
    const r = runCli(["config", "check"], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/agentic\/orchestrator\/policy\.yaml: observability\.replay\.write_mode must be best_effort or required \(got 'sometimes'\)/);
    const j = runJson<{ ok: boolean; problems: { path: string }[] }>(["config", "check"], { cwd: root });
    expect(j.code).toBe(1);
    expect(j.json.ok).toBe(false);
    expect(j.json.problems[0]!.path).toBe("observability.replay.write_mode");
  });

  it("config check reports unparseable YAML without a stack trace", () => {
    const root = tempWorkspace();
    writeFile(root, "agentic/orchestrator/gates.yaml", "profiles: [\n");
    const r = runCli(["config", "check"], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/gates\.yaml: is not valid YAML at line/);
    expect(r.stderr).toBe("");
  });

  it("finds the workspace root from a subfolder and honours AOP_ROOT", () => {
    const root = tempWorkspace();
    fs.mkdirSync(path.join(root, "a", "b"), { recursive: true });
    const fromSub = runJson<{ root: string }>(["init"], { cwd: path.join(root, "a", "b") });
    expect(fs.realpathSync(fromSub.json.root)).toBe(fs.realpathSync(root));
    const other = tempWorkspace();
    const viaEnv = runJson<{ root: string }>(["init"], { cwd: root, env: { AOP_ROOT: other } });
    expect(viaEnv.json.root).toBe(other);
  });
});
