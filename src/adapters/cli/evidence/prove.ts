// aop evidence prove: an RFC 9162 inclusion proof for one chain entry (evidence.prove). Human output is
// the C2SP tlog proof itself when an anchor covers the entry, so `> entry.tlog-proof` saves it.
import type { Command } from "commander";
import { parseWholeNumberFlag } from "../flags/flags.js";
import { examples, runCommand } from "../program/run-command.js";

export function register(evidence: Command): void {
  evidence
    .command("prove")
    .description("print an RFC 9162 inclusion proof for one chain entry (a C2SP tlog proof when an anchor covers it)")
    .requiredOption("--feature-id <id>", "feature whose chain holds the entry")
    .requiredOption("--sequence <n>", "the entry's sequence (0-based)")
    .addHelpText("after", examples("aop evidence prove --feature-id feat_login --sequence 0 > entry0.tlog-proof", "aop evidence prove --feature-id feat_login --sequence 2 --json"))
    .action(
      runCommand(async (ctx, opts) => {
        const sequence = parseWholeNumberFlag("--sequence", String(opts.sequence), 0);
        const { callTool } = await import("../sessions/tool-session.js");
        const report = await callTool(ctx, "evidence.prove", { feature_id: opts.featureId, sequence });
        if (ctx.json) return ctx.printJson(report);
        if (report.tlog_proof !== null) return ctx.out(report.tlog_proof.replace(/\n$/, ""));
        ctx.err(`no anchor covers entry ${sequence} yet: this proof is against today's chain of ${report.tree_size} entries, whose root nobody has signed (run \`aop evidence anchor --feature-id ${report.feature_id}\`)`);
        ctx.out([`index ${report.sequence}`, ...report.proof, `tree_size ${report.tree_size}`, `root ${report.root}`].join("\n"));
      }),
    );
}
