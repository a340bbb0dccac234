// aop integrate claude|codex|cursor: print (or --write) the client config that wires in aop.
import type { Command } from "commander";
import { examples, runCommand, usageError } from "../run-command.js";

export function register(program: Command, summary: string): void {
  program
    .command("integrate")
    .description(summary)
    .argument("<client>", "claude | codex | cursor")
    .option("--write", "merge the entries into the files (keeps every existing key and hook; idempotent)")
    .addHelpText(
      "after",
      "\nFiles: claude → .claude/settings.json (hooks) and .mcp.json; codex → .codex/config.toml; cursor → .cursor/mcp.json\n" +
        examples("aop integrate claude", "aop integrate claude --write", "aop integrate cursor --write --json"),
    )
    .action(
      runCommand(async (ctx, opts, client: string) => {
        const { CLIENTS } = await import("../../../domains/agents/index.js");
        if (!(CLIENTS as string[]).includes(client)) throw usageError(`unknown client '${client}'`, `choose one of: ${CLIENTS.join(", ")}`);
        const { planIntegration, writeIntegration } = await import("../../../domains/agents/index.js");
        const files = await planIntegration(ctx.layout, client as "claude");
        if (opts.write) writeIntegration(ctx.layout, files);
        if (ctx.json) {
          ctx.printJson({ client, written: opts.write === true, files });
          return;
        }
        const s = ctx.style;
        for (const f of files) {
          const verb = f.action === "unchanged" ? s.dim("unchanged") : opts.write ? s.green(f.action === "create" ? "created" : "updated") : s.yellow(`would ${f.action}`);
          ctx.out(`${verb}  ${f.path}${f.notes.length ? s.dim(` (${f.notes.join("; ")})`) : ""}`);
          if (!opts.write && f.action !== "unchanged") ctx.out(f.content.replace(/^/gm, "    "));
        }
        if (!opts.write && files.some((f) => f.action !== "unchanged")) ctx.out(s.dim(`run again with --write to apply (aop integrate ${client} --write)`));
      }),
    );
}
