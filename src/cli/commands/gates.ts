// aop gates run: run one mode of gates.yaml for a feature; live progress on a TTY, a summary table, exit 1 on failure.
import type { Command } from "commander";
import { EXIT_FAILED } from "../exit-codes.js";
import { examples, runCommand } from "../run-command.js";

export function register(program: Command, summary: string): void {
  const gates = program.command("gates").description(summary).addHelpText("after", examples("aop gates run --feature-id feat_login --mode fast"));
  gates
    .command("run")
    .description("run one mode of a gates.yaml profile for a feature and record its evidence; exit 1 when the gate fails")
    .requiredOption("--feature-id <id>", "feature the gate runs for")
    .requiredOption("--mode <mode>", "mode of the profile, e.g. fast or full")
    .option("--profile <name>", "profile of gates.yaml (default: its default_profile)")
    .addHelpText("after", examples("aop gates run --feature-id feat_login --mode fast", "aop gates run --feature-id feat_login --mode full --profile ci --json"))
    .action(
      runCommand(async (ctx, opts) => {
        const { loadPolicy } = await import("../../config/policy-loader.js");
        const { runGate } = await import("../../gates/gate-service.js");
        const { killRunningSteps } = await import("../../gates/step-process.js");
        const { createGateProgress, renderGateReport } = await import("../output/gate-format.js");
        const policy = await loadPolicy(ctx.layout);
        const progress = ctx.json ? null : createGateProgress(ctx.errStyle);
        // Steps lead their own process groups, so an interrupt must take them down explicitly.
        const interrupted = (signal: NodeJS.Signals) => {
          const killed = killRunningSteps();
          progress?.stop();
          ctx.err(`interrupted by ${signal}: ${killed} running step${killed === 1 ? "" : "s"} killed; no evidence was written`);
          process.exit(130);
        };
        process.once("SIGINT", interrupted);
        process.once("SIGTERM", interrupted);
        let report;
        try {
          report = await runGate(
            ctx.layout,
            ctx.clock,
            policy,
            { feature_id: opts.featureId as string, mode: opts.mode as string, profile: opts.profile as string | undefined },
            { onProgress: progress ? (e) => progress.onEvent(e) : undefined, warn: (m) => ctx.err(`warning: ${m}`) },
          );
        } finally {
          process.off("SIGINT", interrupted);
          process.off("SIGTERM", interrupted);
          progress?.stop();
        }
        if (ctx.json) ctx.printJson(report);
        else ctx.out(renderGateReport(report, ctx.style));
        return report.overall === "pass" ? 0 : EXIT_FAILED;
      }),
    );
}
