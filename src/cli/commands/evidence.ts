// aop evidence latest | verify: the newest gate evidence of a feature, and integrity chain verification.
import type { Command } from "commander";
import { EXIT_FAILED } from "../exit-codes.js";
import { examples, runCommand, usageError } from "../run-command.js";

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
        const { loadPolicy } = await import("../../config/policy-loader.js");
        const { latestEvidence } = await import("../../evidence/evidence-latest.js");
        const policy = await loadPolicy(ctx.layout);
        const latest = await latestEvidence(ctx.layout, ctx.clock, policy, { feature_id: opts.featureId as string, mode: opts.mode as string | undefined }, (m) => ctx.err(`warning: ${m}`));
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
        // Verification needs neither the policy nor YAML: it reads only the evidence folders.
        const { verifyAllChains, verifyFeatureChain } = await import("../../evidence/evidence-verify.js");
        const { createProgress } = await import("../output/progress.js");
        const progress = createProgress(process.stderr, !ctx.json && process.stderr.isTTY === true);
        const show = (id: string, walked: number, expected: number | null) => progress.update(`verifying ${id}: ${walked}${expected === null ? "" : `/${expected}`} entries`);
        let reports;
        try {
          reports = all ? await verifyAllChains(ctx.layout, ctx.clock, { onProgress: show }) : [await verifyFeatureChain(ctx.layout, ctx.clock, featureId!, { onProgress: (w, e) => show(featureId!, w, e) })];
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
