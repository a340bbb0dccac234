// aop evidence latest | verify: the newest gate evidence of a feature, and integrity chain verification.
import type { Command } from "commander";
import { EXIT_FAILED } from "../exit-codes.js";
import { examples, runCommand, usageError } from "../run-command.js";
import type { ChainVerifyReport } from "../../../domains/evidence/index.js";

export function register(program: Command, summary: string): void {
  const evidence = program
    .command("evidence")
    .description(summary)
    .addHelpText("after", examples("aop evidence latest --feature-id feat_login", "aop evidence verify --all"));

  evidence
    .command("latest")
    .description("show the newest gate evidence of a feature (by the time it records, not file time)")
    .requiredOption("--feature-id <id>", "feature whose evidence to show")
    .option("--mode <mode>", "only evidence of this mode")
    .addHelpText("after", examples("aop evidence latest --feature-id feat_login", "aop evidence latest --feature-id feat_login --mode full --json"))
    .action(
      runCommand(async (ctx, opts) => {
        const { callTool } = await import("../tool-session.js");
        const args: Record<string, unknown> = { feature_id: opts.featureId };
        if (opts.mode !== undefined) args.mode = opts.mode;
        const latest = await callTool(ctx, "evidence.latest", args);
        if (ctx.json) {
          ctx.printJson(latest);
          return 0;
        }
        const { renderLatestEvidence } = await import("../output/evidence-format.js");
        ctx.out(renderLatestEvidence(latest, ctx.style, ctx.clock.now()));
        return 0;
      }),
    );

  evidence
    .command("verify")
    .description("verify evidence integrity chains; one line per feature; exit 1 when any chain is invalid")
    .option("--feature-id <id>", "the feature whose chain to verify")
    .option("--all", "every feature that has a chain")
    .addHelpText("after", examples("aop evidence verify --feature-id feat_login", "aop evidence verify --all --json"))
    .action(
      runCommand(async (ctx, opts) => {
        const featureId = opts.featureId as string | undefined;
        const all = opts.all === true;
        if ((featureId === undefined) === !all) throw usageError("give either --feature-id <id> or --all", "aop evidence verify --feature-id feat_login");
        const { withClient } = await import("../tool-session.js");
        const { chainedFeatureIds } = await import("../../../domains/evidence/index.js");
        const { createProgress } = await import("../output/progress.js");
        const progress = createProgress(process.stderr, !ctx.json && process.stderr.isTTY === true);
        const ids = all ? chainedFeatureIds(ctx.layout) : [featureId!];
        const reports: ChainVerifyReport[] = [];
        try {
          await withClient(ctx, async (call) => {
            for (const id of ids) {
              const onProgress = (e: unknown) => {
                const { walked, expected } = e as { walked: number; expected: number | null };
                progress.update(`verifying ${id}: ${walked}${expected === null ? "" : `/${expected}`} entries`);
              };
              reports.push(await call("evidence.verify_chain", { feature_id: id }, { onProgress }));
            }
          });
        } finally {
          progress.done();
        }
        const valid = reports.every((r) => r.valid);
        if (ctx.json) {
          ctx.printJson(all ? { valid, features: reports } : reports[0]);
          return valid ? 0 : EXIT_FAILED;
        }
        const { renderVerifyLine } = await import("../output/evidence-format.js");
        if (reports.length === 0) ctx.out("no feature has an evidence chain (chains are written when evidence integrity is on in policy)");
        for (const report of reports) ctx.out(renderVerifyLine(report, ctx.style));
        return valid ? 0 : EXIT_FAILED;
      }),
    );
}
