// aop tools: the tool catalog as a table, or regenerate agentic/orchestrator/tools.md.
import type { Command } from "commander";
import { examples, runCommand } from "../program/run-command.js";

export function register(program: Command, summary: string): void {
  program
    .command("tools")
    .description(summary)
    .option("--write-docs", "regenerate agentic/orchestrator/tools.md from the catalog")
    .addHelpText("after", examples("aop tools", "aop tools --json", "aop tools --write-docs"))
    .action(
      runCommand(async (ctx, opts) => {
        const { loadCatalog, mcpToolName } = await import("../../../catalog/catalog.js");
        const tools = loadCatalog().tools;
        if (opts.writeDocs) {
          const { writeToolsDoc } = await import("../../../catalog/tools-doc-file.js");
          const written = writeToolsDoc(ctx.layout);
          if (ctx.json) ctx.printJson({ written: ctx.layout.relative(written), tools: tools.length });
          else ctx.out(`wrote ${ctx.layout.relative(written)} (${tools.length} tools)`);
          return;
        }
        if (ctx.json) {
          ctx.printJson({ tools });
          return;
        }
        const { renderTable } = await import("../output/table.js");
        const rows = tools.map((t) => [t.name, mcpToolName(t.name), t.mutating ? "M" : "", t.supported_roles.join(","), t.title]);
        ctx.out(renderTable([{ header: "TOOL" }, { header: "MCP NAME" }, { header: "M" }, { header: "ROLES" }, { header: "TITLE" }], rows));
        ctx.out(ctx.style.dim(`\n${tools.length} tools · M = mutating (needs operation_id) · call one with: aop call <tool> --args '{...}'`));
      }),
    );
}
