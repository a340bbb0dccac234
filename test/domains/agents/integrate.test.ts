import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runJson } from "../../helpers/cli.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";
import { mergeClaudeHooks, mergeMcpServers, CLAUDE_HOOK_EVENTS } from "../../../src/domains/agents/client-configs.js";

const read = (root: string, rel: string) => fs.readFileSync(path.join(root, rel), "utf8");

describe("client config merges (pure)", () => {
  it("adds one aop hook group per event and is idempotent", () => {
    const first = mergeClaudeHooks({}, "aop hook claude");
    expect(Object.keys(first.value.hooks as object)).toEqual([...CLAUDE_HOOK_EVENTS]);
    const second = mergeClaudeHooks(first.value, "aop hook claude");
    expect(second.changed).toBe(false);
    expect(second.value).toEqual(first.value);
  });

  it("keeps existing hooks and keys", () => {
    const existing = { model: "opus", hooks: { PostToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "prettier --write" }] }] } };
    const merged = mergeClaudeHooks(existing, "aop hook claude").value as { model: string; hooks: { PostToolUse: unknown[] } };
    expect(merged.model).toBe("opus");
    expect(merged.hooks.PostToolUse).toHaveLength(2);
    expect(merged.hooks.PostToolUse[0]).toEqual(existing.hooks.PostToolUse[0]);
  });

  it("never replaces a differing aop server entry", () => {
    const existing = { mcpServers: { aop: { command: "custom" }, other: { command: "x" } } };
    const merged = mergeMcpServers(existing, { command: "aop", args: ["mcp"] });
    expect(merged.changed).toBe(false);
    expect(merged.value).toEqual(existing);
    expect(merged.notes[0]).toMatch(/differs; kept as is/);
  });
});

describe("aop integrate --write", () => {
  it("claude with no files: creates .claude/settings.json and .mcp.json", () => {
    const root = tempWorkspace();
    const r = runJson<{ files: { path: string; action: string }[] }>(["integrate", "claude", "--write", "--root", root]);
    expect(r.code).toBe(0);
    expect(r.json.files.map((f) => [f.path, f.action])).toEqual([[".claude/settings.json", "create"], [".mcp.json", "create"]]);
    const settings = JSON.parse(read(root, ".claude/settings.json")) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    expect(Object.keys(settings.hooks).sort()).toEqual([...CLAUDE_HOOK_EVENTS].sort());
    expect(settings.hooks.PostToolUse![0]!.hooks[0]!.command).toMatch(/hook claude$/);
    expect(JSON.parse(read(root, ".mcp.json")).mcpServers.aop.args).toContain("mcp");
  });

  it("keeps an existing settings file's hooks and keys; a second run changes nothing", () => {
    const root = tempWorkspace();
    writeFile(root, ".claude/settings.json", JSON.stringify({ permissions: { allow: ["Bash(npm test)"] }, hooks: { Stop: [{ hooks: [{ type: "command", command: "say done" }] }] } }, null, 2));
    expect(runCli(["integrate", "claude", "--write", "--root", root]).code).toBe(0);
    const once = read(root, ".claude/settings.json");
    const parsed = JSON.parse(once) as { permissions: object; hooks: { Stop: { hooks: { command: string }[] }[] } };
    expect(parsed.permissions).toEqual({ allow: ["Bash(npm test)"] });
    expect(parsed.hooks.Stop.map((g) => g.hooks[0]!.command)).toEqual(["say done", expect.stringMatching(/hook claude$/)]);
    const again = runJson<{ files: { action: string }[] }>(["integrate", "claude", "--write", "--root", root]);
    expect(again.json.files.map((f) => f.action)).toEqual(["unchanged", "unchanged"]);
    expect(read(root, ".claude/settings.json")).toBe(once);
  });

  it("refuses to touch a file it cannot parse (exit 1, says why, nothing written)", () => {
    const root = tempWorkspace();
    writeFile(root, ".claude/settings.json", "{ \"hooks\": ");
    const r = runCli(["integrate", "claude", "--write", "--root", root]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\.claude\/settings\.json cannot be parsed as JSON .*nothing was changed/);
    expect(read(root, ".claude/settings.json")).toBe("{ \"hooks\": ");
    expect(fs.existsSync(path.join(root, ".mcp.json"))).toBe(false);
  });

  it("codex: appends an [mcp_servers.aop] table, keeping the rest byte for byte; idempotent", () => {
    const root = tempWorkspace();
    const mine = "# my settings\nmodel = \"o4\"\n\n[mcp_servers.other]\ncommand = \"x\"\n";
    writeFile(root, ".codex/config.toml", mine);
    expect(runCli(["integrate", "codex", "--write", "--root", root]).code).toBe(0);
    const text = read(root, ".codex/config.toml");
    expect(text.startsWith(mine)).toBe(true);
    expect(text).toMatch(/\[mcp_servers\.aop\]\ncommand = "[^"]+"\nargs = \[.*"mcp", "--root", ".*"\]/);
    expect(runCli(["integrate", "codex", "--write", "--root", root]).code).toBe(0);
    expect(read(root, ".codex/config.toml")).toBe(text);
    writeFile(root, ".codex/config.toml", "model = \n");
    expect(runCli(["integrate", "codex", "--write", "--root", root]).code).toBe(1);
  });

  it("cursor: writes .cursor/mcp.json; without --write only prints", () => {
    const root = tempWorkspace();
    const dry = runCli(["integrate", "cursor", "--root", root]);
    expect(dry.stdout).toMatch(/would create\s+\.cursor\/mcp\.json/);
    expect(fs.existsSync(path.join(root, ".cursor/mcp.json"))).toBe(false);
    runCli(["integrate", "cursor", "--write", "--root", root]);
    expect(JSON.parse(read(root, ".cursor/mcp.json")).mcpServers.aop.args).toEqual(expect.arrayContaining(["mcp", "--root", root]));
  });

  it("an unknown client is a usage error", () => {
    expect(runCli(["integrate", "vim"]).code).toBe(2);
  });
});

describe("aop integrate: what is left to do", () => {
  it("claude --write says the server is pending approval until approved; --approve-mcp approves it in settings.local.json only", () => {
    const root = tempWorkspace();
    const plain = runJson<{ next_steps: string[] }>(["integrate", "claude", "--write", "--root", root]);
    expect(plain.json.next_steps[0]).toMatch(/"Pending approval"[\s\S]*aop integrate claude --write --approve-mcp/);
    expect(plain.json.next_steps.join("\n")).toMatch(/trust dialog/);
    expect(fs.existsSync(path.join(root, ".claude/settings.local.json"))).toBe(false);
    writeFile(root, ".claude/settings.local.json", JSON.stringify({ permissions: { allow: ["Bash(ls)"] }, enabledMcpjsonServers: ["github"] }));
    const approved = runJson<{ files: { path: string; action: string }[]; next_steps: string[] }>(["integrate", "claude", "--write", "--approve-mcp", "--root", root]);
    expect(approved.json.files.map((f) => [f.path, f.action])).toEqual([[".claude/settings.json", "unchanged"], [".mcp.json", "unchanged"], [".claude/settings.local.json", "update"]]);
    expect(JSON.parse(read(root, ".claude/settings.local.json"))).toEqual({ permissions: { allow: ["Bash(ls)"] }, enabledMcpjsonServers: ["github", "aop"] });
    expect(approved.json.next_steps.join("\n")).not.toMatch(/Pending approval/);
    // Approved by hand (or by the first run) counts the same without the flag.
    expect(runJson<{ next_steps: string[] }>(["integrate", "claude", "--root", root]).json.next_steps.join("\n")).not.toMatch(/Pending approval/);
  });

  it("a server the user disabled is left disabled, and said so", () => {
    const root = tempWorkspace();
    writeFile(root, ".claude/settings.local.json", JSON.stringify({ disabledMcpjsonServers: ["aop"] }));
    const r = runJson<{ files: { notes: string[] }[]; next_steps: string[] }>(["integrate", "claude", "--write", "--approve-mcp", "--root", root]);
    expect(r.json.files[2]!.notes).toEqual(["aop is in disabledMcpjsonServers; kept as you set it"]);
    expect(r.json.next_steps[0]).toMatch(/disabledMcpjsonServers/);
  });

  it("codex --write says Codex ignores the file until the project is trusted, and how to trust it", () => {
    const root = tempWorkspace();
    const r = runCli(["integrate", "codex", "--write", "--root", root]);
    expect(r.stdout).toMatch(/Next:\n1\. Codex reads \.codex\/config\.toml and \.codex\/hooks\.json only in a trusted project/);
    expect(r.stdout).toMatch(/trust aop's hooks/);
    expect(r.stdout).toContain(`[projects.${JSON.stringify(root)}]\n   trust_level = "trusted"`);
  });

  it("--approve-mcp is for claude only", () => {
    const r = runCli(["integrate", "codex", "--approve-mcp", "--root", tempWorkspace()]);
    expect(r.code).toBe(2);
  });
});

describe("aop integrate: every client's hooks, the diff, --dry-run and --remove", () => {
  const CLIENT_FILES: Record<string, string[]> = {
    codex: [".codex/config.toml", ".codex/hooks.json"],
    gemini: [".gemini/settings.json"],
    cursor: [".cursor/hooks.json", ".cursor/mcp.json"],
    opencode: ["opencode.json", ".opencode/plugin/aop.js"],
    openclaw: [".openclaw/extensions/aop/package.json", ".openclaw/extensions/aop/openclaw.plugin.json", ".openclaw/extensions/aop/index.js"],
  };

  it("--dry-run shows the change as a diff and writes nothing; --write is idempotent; --remove --write leaves no file aop created", () => {
    for (const [client, files] of Object.entries(CLIENT_FILES)) {
      const root = tempWorkspace();
      const dry = runCli(["integrate", client, "--dry-run", "--root", root]);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toMatch(new RegExp(`hook ${client}`));
      expect(dry.stdout).toMatch(/^ {4}\+/m);
      for (const f of files) expect(fs.existsSync(path.join(root, f)), f).toBe(false);
      expect(runCli(["integrate", client, "--write", "--root", root]).code).toBe(0);
      const written = files.map((f) => read(root, f));
      const again = runJson<{ files: { action: string; diff: string }[] }>(["integrate", client, "--write", "--root", root]);
      expect(again.json.files.map((f) => [f.action, f.diff])).toEqual(files.map(() => ["unchanged", ""]));
      expect(files.map((f) => read(root, f))).toEqual(written);
      const removed = runJson<{ files: { action: string }[] }>(["integrate", client, "--remove", "--write", "--root", root]);
      expect(removed.json.files.map((f) => f.action)).toEqual(files.map(() => "delete"));
      for (const f of files) expect(fs.existsSync(path.join(root, f)), f).toBe(false);
    }
  });

  it("--remove takes out only aop's entries: the user's hooks, servers and keys stay as they were", () => {
    const root = tempWorkspace();
    const mine = { general: { vimMode: true }, mcpServers: { github: { command: "gh-mcp" } }, hooks: { AfterTool: [{ matcher: "write_file", hooks: [{ type: "command", command: "prettier --write" }] }] } };
    writeFile(root, ".gemini/settings.json", JSON.stringify(mine, null, 2));
    expect(runCli(["integrate", "gemini", "--write", "--root", root]).code).toBe(0);
    const merged = JSON.parse(read(root, ".gemini/settings.json")) as { hooks: { AfterTool: unknown[] }; mcpServers: Record<string, unknown> };
    expect(merged.hooks.AfterTool).toHaveLength(2);
    expect(Object.keys(merged.mcpServers)).toEqual(["github", "aop"]);
    expect(runCli(["integrate", "gemini", "--remove", "--write", "--root", root]).code).toBe(0);
    expect(JSON.parse(read(root, ".gemini/settings.json"))).toEqual(mine);
  });

  it("--remove keeps an `aop` server entry and a plugin file that differ from aop's, and says so", () => {
    const root = tempWorkspace();
    writeFile(root, ".cursor/mcp.json", JSON.stringify({ mcpServers: { aop: { command: "my-aop" } } }));
    writeFile(root, ".opencode/plugin/aop.js", "// my own plugin\n");
    const cursor = runCli(["integrate", "cursor", "--remove", "--write", "--root", root]);
    expect(cursor.stdout).toMatch(/unchanged {2}\.cursor\/mcp\.json \(the `aop` server entry differs from aop's; kept as is\)/);
    const opencode = runCli(["integrate", "opencode", "--remove", "--write", "--root", root]);
    expect(opencode.stdout).toMatch(/unchanged {2}\.opencode\/plugin\/aop\.js \(the file differs from aop's plugin; kept as is\)/);
    expect(read(root, ".opencode/plugin/aop.js")).toBe("// my own plugin\n");
    expect(JSON.parse(read(root, ".cursor/mcp.json"))).toEqual({ mcpServers: { aop: { command: "my-aop" } } });
  });

  it("--write upgrades a plugin an earlier aop wrote (its header line), and keeps one that is not aop's", () => {
    const root = tempWorkspace();
    expect(runCli(["integrate", "opencode", "--write", "--root", root]).code).toBe(0);
    const current = read(root, ".opencode/plugin/aop.js");
    // An earlier version: aop's header line, another body (as before tool calls carried their exit status).
    writeFile(root, ".opencode/plugin/aop.js", current.split("\n")[0] + "\nexport const AopPlugin = async () => ({});\n");
    const dry = runCli(["integrate", "opencode", "--dry-run", "--root", root]);
    expect(dry.stdout).toMatch(/aop's plugin from an earlier version; replaced with this version's/);
    expect(read(root, ".opencode/plugin/aop.js")).not.toBe(current);
    const upgraded = runCli(["integrate", "opencode", "--write", "--root", root]);
    expect(upgraded.code, upgraded.stderr).toBe(0);
    expect(read(root, ".opencode/plugin/aop.js")).toBe(current);
    writeFile(root, ".opencode/plugin/aop.js", "// my own plugin\n");
    expect(runCli(["integrate", "opencode", "--write", "--root", root]).stdout).toMatch(/the file differs from aop's plugin; kept as is/);
    expect(read(root, ".opencode/plugin/aop.js")).toBe("// my own plugin\n");
  });

  it("openclaw: a plugin file the user changed is kept by --write and --remove; the rest of aop's plugin goes", () => {
    const root = tempWorkspace();
    expect(runCli(["integrate", "openclaw", "--write", "--root", root]).code).toBe(0);
    writeFile(root, ".openclaw/extensions/aop/index.js", "// my own plugin\n");
    const again = runCli(["integrate", "openclaw", "--write", "--root", root]);
    expect(again.stdout).toMatch(/unchanged {2}\.openclaw\/extensions\/aop\/index\.js \(the file differs from aop's plugin; kept as is\)/);
    const removed = runJson<{ files: { path: string; action: string }[] }>(["integrate", "openclaw", "--remove", "--write", "--root", root]);
    expect(removed.json.files.map((f) => [f.path.split("/").pop(), f.action])).toEqual([["package.json", "delete"], ["openclaw.plugin.json", "delete"], ["index.js", "unchanged"]]);
    expect(read(root, ".openclaw/extensions/aop/index.js")).toBe("// my own plugin\n");
  });

  it("openclaw: the next steps name OpenClaw's own commands for the plugin, the MCP server and the scheduled doctor", () => {
    const root = tempWorkspace();
    const r = runJson<{ next_steps: string[] }>(["integrate", "openclaw", "--root", root]);
    const lines = r.json.next_steps.flatMap((s) => s.split("\n"));
    expect(lines).toContain("openclaw plugins enable aop");
    expect(lines).toContain("openclaw config set plugins.entries.aop.hooks.allowConversationAccess true");
    const mcp = lines.find((l) => l.startsWith("openclaw mcp set aop "))!;
    expect(JSON.parse(mcp.slice("openclaw mcp set aop ".length).replace(/^'|'$/g, ""))).toMatchObject({ args: expect.arrayContaining(["mcp", "--root", root]) });
    expect(lines.find((l) => l.startsWith("openclaw cron add "))).toMatch(/--command '.*doctor --strict --json > aop-doctor\.json' --command-cwd \S+ --declaration-key aop-doctor-[0-9a-f]{12} --no-deliver/);
  });

  it("codex --remove takes out exactly the table aop appended, keeping the rest byte for byte", () => {
    const root = tempWorkspace();
    const mine = "# my settings\nmodel = \"o4\"\n\n[mcp_servers.other]\ncommand = \"x\"\n";
    writeFile(root, ".codex/config.toml", mine);
    expect(runCli(["integrate", "codex", "--write", "--root", root]).code).toBe(0);
    expect(read(root, ".codex/config.toml")).not.toBe(mine);
    expect(runCli(["integrate", "codex", "--remove", "--write", "--root", root]).code).toBe(0);
    expect(read(root, ".codex/config.toml")).toBe(mine);
  });

  it("--dry-run with --write is a usage error", () => {
    expect(runCli(["integrate", "codex", "--dry-run", "--write"]).code).toBe(2);
  });
});
