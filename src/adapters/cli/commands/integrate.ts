// aop integrate claude|codex|gemini|cursor|opencode|openclaw: show (or --write) the change to the client's hook
// and MCP configuration that wires in aop, as a diff, and what the user still has to do in the client.
// --remove takes out only what aop wrote (docs/agents.md).
import type { Command } from "commander";
import { examples, runCommand, usageError } from "../program/run-command.js";

const FILES =
  "\nFiles: claude → .claude/settings.json (hooks) and .mcp.json (+ .claude/settings.local.json with --approve-mcp); codex → .codex/config.toml and .codex/hooks.json;\n" +
  "gemini → .gemini/settings.json (hooks and mcpServers); cursor → .cursor/hooks.json and .cursor/mcp.json; opencode → opencode.json (mcp) and .opencode/plugin/aop.js;\n" +
  "openclaw → .openclaw/extensions/aop/ (plugin; its MCP entry and scheduled doctor are printed as openclaw commands)\n";

export function register(program: Command, summary: string): void {
  program
    .command("integrate")
    .description(summary)
    .argument("<client>", "claude | codex | gemini | cursor | opencode | openclaw")
    .option("--write", "apply the change (keeps every existing key and hook; idempotent)")
    .option("--dry-run", "only show the change (the default without --write)")
    .option("--remove", "take out the hooks, server entry and plugin aop wrote (entries that differ from aop's are kept)")
    .option("--approve-mcp", "claude: also approve the aop server for you in this project (.claude/settings.local.json enabledMcpjsonServers)")
    .addHelpText("after", FILES + examples("aop integrate claude", "aop integrate claude --write --approve-mcp", "aop integrate codex --write", "aop integrate gemini --remove --write", "aop integrate cursor --dry-run --json", "aop integrate openclaw --write"))
    .action(
      runCommand(async (ctx, opts, client: string) => {
        const { CLIENTS } = await import("../../../domains/agents/index.js");
        if (!(CLIENTS as string[]).includes(client)) throw usageError(`unknown client '${client}'`, `choose one of: ${CLIENTS.join(", ")}`);
        if (opts.approveMcp && client !== "claude") throw usageError("--approve-mcp is for claude only", `run aop integrate ${client} --write`);
        if (opts.dryRun && opts.write) throw usageError("--dry-run and --write contradict each other", "choose one");
        const write = opts.write === true;
        const remove = opts.remove === true;
        const { planIntegration, writeIntegration } = await import("../../../domains/agents/index.js");
        const { files, next_steps } = await planIntegration(ctx.layout, client as "claude", process.env, { approveMcp: opts.approveMcp === true, remove });
        if (write) writeIntegration(ctx.layout, files);
        if (ctx.json) {
          ctx.printJson({ client, written: write, removed: remove, files, next_steps });
          return;
        }
        const s = ctx.style;
        const done: Record<string, string> = { create: "created", update: "updated", delete: "deleted" };
        if (files.length === 0) ctx.out(s.dim(`nothing of aop's to remove for ${client}`));
        for (const f of files) {
          const verb = f.action === "unchanged" ? s.dim("unchanged") : write ? s.green(done[f.action]!) : s.yellow(`would ${f.action}`);
          ctx.out(`${verb}  ${f.path}${f.notes.length ? s.dim(` (${f.notes.join("; ")})`) : ""}`);
          // The diff is what a dry run is for; a write lists what it did (--json has the diff either way).
          if (!write) for (const line of f.diff.split("\n").filter((l) => l !== "")) ctx.out(`    ${line[0] === "+" ? s.green(line) : line[0] === "-" ? s.red(line) : s.dim(line)}`);
        }
        if (!write && files.some((f) => f.action !== "unchanged")) {
          ctx.out(s.dim(`run again with --write to apply (aop integrate ${client}${remove ? " --remove" : ""} --write${opts.approveMcp ? " --approve-mcp" : ""})`));
          return;
        }
        if (next_steps.length === 0) return;
        ctx.out(`\n${s.bold("Next:")}`);
        for (const [i, step] of next_steps.entries()) ctx.out(`${i + 1}. ${step.replace(/\n/g, "\n   ")}`);
      }),
    );
}
