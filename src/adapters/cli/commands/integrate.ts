// aop integrate claude|codex|cursor: print (or --write) the client config that wires in aop, and what
// the user still has to do in the client itself.
import type { Command } from "commander";
import { examples, runCommand, usageError } from "../program/run-command.js";

export function register(program: Command, summary: string): void {
  program
    .command("integrate")
    .description(summary)
    .argument("<client>", "claude | codex | cursor")
    .option("--write", "merge the entries into the files (keeps every existing key and hook; idempotent)")
    .option("--approve-mcp", "claude: also approve the aop server for you in this project (.claude/settings.local.json enabledMcpjsonServers)")
    .addHelpText(
      "after",
      "\nFiles: claude → .claude/settings.json (hooks) and .mcp.json (+ .claude/settings.local.json with --approve-mcp); codex → .codex/config.toml; cursor → .cursor/mcp.json\n" +
        examples("aop integrate claude", "aop integrate claude --write --approve-mcp", "aop integrate cursor --write --json"),
    )
    .action(
      runCommand(async (ctx, opts, client: string) => {
        const { CLIENTS } = await import("../../../domains/agents/index.js");
        if (!(CLIENTS as string[]).includes(client)) throw usageError(`unknown client '${client}'`, `choose one of: ${CLIENTS.join(", ")}`);
        if (opts.approveMcp && client !== "claude") throw usageError("--approve-mcp is for claude only", `run aop integrate ${client} --write`);
        const { planIntegration, writeIntegration } = await import("../../../domains/agents/index.js");
        const { files, next_steps } = await planIntegration(ctx.layout, client as "claude", process.env, { approveMcp: opts.approveMcp === true });
        if (opts.write) writeIntegration(ctx.layout, files);
        if (ctx.json) {
          ctx.printJson({ client, written: opts.write === true, files, next_steps });
          return;
        }
        const s = ctx.style;
        for (const f of files) {
          const verb = f.action === "unchanged" ? s.dim("unchanged") : opts.write ? s.green(f.action === "create" ? "created" : "updated") : s.yellow(`would ${f.action}`);
          ctx.out(`${verb}  ${f.path}${f.notes.length ? s.dim(` (${f.notes.join("; ")})`) : ""}`);
          if (!opts.write && f.action !== "unchanged") ctx.out(f.content.replace(/^/gm, "    "));
        }
        if (!opts.write && files.some((f) => f.action !== "unchanged")) {
          ctx.out(s.dim(`run again with --write to apply (aop integrate ${client} --write${opts.approveMcp ? " --approve-mcp" : ""})`));
          return;
        }
        ctx.out(`\n${s.bold("Next:")}`);
        for (const [i, step] of next_steps.entries()) ctx.out(`${i + 1}. ${step.replace(/\n/g, "\n   ")}`);
      }),
    );
}
