// aop call: call any catalog tool by its canonical name with JSON arguments.
import type { Command } from "commander";
import { examples, runCommand } from "../program/run-command.js";
import { EXIT_FAILED } from "../program/exit-codes.js";

export function register(program: Command, summary: string): void {
  program
    .command("call")
    .description(summary)
    .argument("<tool>", "canonical tool name, e.g. feature.get (see `aop tools`)")
    .option("--args <json>", "arguments as JSON, or @file.json to read them from a file", "{}")
    .option("--operation-id <id>", "idempotency key for a mutating tool (default: a fresh one)")
    .addHelpText(
      "after",
      examples(
        `aop call feature.init --args '{"feature_id":"feat_login","title":"Login page"}'`,
        `aop call feature.get --args '{"feature_id":"feat_login"}' --json`,
        "aop call run.start --args @start.json --operation-id op-start-0001",
      ),
    )
    .action(
      runCommand(async (ctx, opts, tool: string) => {
        const { parseArgsOption } = await import("../flags/args-option.js");
        const { loadCatalog } = await import("../../../catalog/catalog.js");
        const { openClient, withOperationId } = await import("../sessions/tool-session.js");
        let args = parseArgsOption(String(opts.args));
        const entry = loadCatalog().get(tool);
        if (entry?.requires_operation_id && (opts.operationId !== undefined || args.operation_id === undefined)) args = withOperationId(args, opts.operationId);
        const client = await openClient(ctx);
        let result;
        try {
          result = await client.callTool(tool, args);
        } finally {
          await client.close();
        }
        if (ctx.json) ctx.out(result.envelope_json);
        else if (result.envelope.ok) ctx.out(JSON.stringify(result.envelope.data, null, 2));
        else {
          const { code, message, details } = result.envelope.error;
          ctx.err(`error ${code}: ${message}`);
          if (typeof details.hint === "string") ctx.err(`hint: ${details.hint}`);
          const { hint: _hint, ...rest } = details;
          if (Object.keys(rest).length > 0) ctx.err(JSON.stringify(rest, null, 2));
        }
        return result.envelope.ok ? 0 : EXIT_FAILED;
      }),
    );
}
