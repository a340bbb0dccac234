// aop evidence reset-chain: start a feature's chain over, keeping the old one and recording why
// (evidence.reset_chain; docs/evidence.md, "Repairing a chain").
import type { Command } from "commander";
import { examples, runCommand } from "../program/run-command.js";

export function register(evidence: Command): void {
  evidence
    .command("reset-chain")
    .description("start a feature's integrity chain over: the old chain and the files it covered are kept in evidence/reset-<stamp>/, and the reset is recorded")
    .requiredOption("--feature-id <id>", "the feature whose chain to start over")
    .requiredOption("--reason <text>", "why (kept in evidence/resets.jsonl)")
    .option("--operation-id <id>", "idempotency key (default: a fresh one)")
    .addHelpText("after", examples("aop evidence reset-chain --feature-id feat_login --reason 'evidence folder lost in a bad merge; no trusted copy'"))
    .action(
      runCommand(async (ctx, opts) => {
        const { callTool, withOperationId } = await import("../sessions/tool-session.js");
        const record = await callTool(ctx, "evidence.reset_chain", withOperationId({ feature_id: opts.featureId, reason: opts.reason }, opts.operationId));
        if (ctx.json) return ctx.printJson(record);
        const { renderChainReset } = await import("../output/evidence-format.js");
        ctx.out(renderChainReset(record, ctx.style));
      }),
    );
}
