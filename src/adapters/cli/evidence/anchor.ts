// aop evidence anchor: sign a checkpoint of each named chain (evidence.anchor), optionally committing it
// on refs/aop/anchors.
import type { Command } from "commander";
import { examples, runCommand, usageError } from "../program/run-command.js";
import type { AnchorResult } from "../../../domains/attest/index.js";

export function register(evidence: Command): void {
  evidence
    .command("anchor")
    .description("sign a C2SP checkpoint of a chain (entry count, RFC 6962 root) and append it to anchors.jsonl")
    .option("--feature-id <id>", "the feature whose chain to anchor")
    .option("--all", "every feature that has a chain")
    .option("--git", "also commit it on refs/aop/anchors (never touches your branch, index or working tree)")
    .option("--operation-id <id>", "idempotency key, with --feature-id (default: a fresh one)")
    .addHelpText("after", examples("aop evidence anchor --feature-id feat_login", "aop evidence anchor --all --git"))
    .action(
      runCommand(async (ctx, opts) => {
        const featureId = opts.featureId as string | undefined;
        const all = opts.all === true;
        if ((featureId === undefined) === !all) throw usageError("give either --feature-id <id> or --all", "aop evidence anchor --feature-id feat_login");
        if (all && opts.operationId !== undefined) throw usageError("--operation-id goes with --feature-id (each feature of --all gets its own)");
        const { withClient, withOperationId } = await import("../sessions/tool-session.js");
        const { chainedFeatureIds } = await import("../../../domains/evidence/index.js");
        const ids = all ? chainedFeatureIds(ctx.layout) : [featureId!];
        const results = await withClient(ctx, async (call) => {
          const out: AnchorResult[] = [];
          for (const id of ids) out.push(await call("evidence.anchor", withOperationId({ feature_id: id, ...(opts.git === true ? { git: true } : {}) }, all ? undefined : opts.operationId)));
          return out;
        });
        if (ctx.json) return ctx.printJson(all ? { anchors: results } : results[0]);
        const { renderAnchor } = await import("../output/attest-format.js");
        if (results.length === 0) ctx.out("no feature has an evidence chain to anchor");
        for (const r of results) ctx.out(renderAnchor(r, ctx.style));
      }),
    );
}
