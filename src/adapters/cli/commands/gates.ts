// aop gates run: run one mode of gates.yaml for a feature; live progress on a TTY, a summary table, exit 1 on failure
// (the call's gate_failed error: the table is drawn from its details; --json prints the error envelope).
import type { Command } from "commander";
import { isAopError } from "../../../core/errors.js";
import { EXIT_FAILED } from "../program/exit-codes.js";
import { examples, reportError, runCommand } from "../program/run-command.js";
import type { GateRunReport } from "../../../domains/gates/index.js";
import type { GateProgressEvent } from "../../../domains/gates/index.js";

export function register(program: Command, summary: string): void {
  const gates = program.command("gates").description(summary).addHelpText("after", examples("aop gates run --feature-id feat_login --mode fast"));
  gates
    .command("run")
    .description("run one mode of a gates.yaml profile for a feature and record its evidence; exit 1 when the gate fails")
    .requiredOption("--feature-id <id>", "feature the gate runs for")
    .requiredOption("--mode <mode>", "mode of the profile, e.g. fast or full")
    .option("--profile <name>", "profile of gates.yaml (default: its default_profile)")
    .option("--operation-id <id>", "idempotency key (default: a fresh one)")
    .addHelpText("after", examples("aop gates run --feature-id feat_login --mode fast", "aop gates run --feature-id feat_login --mode full --profile ci --json"))
    .action(
      runCommand(async (ctx, opts) => {
        const { withClient, withOperationId } = await import("../sessions/tool-session.js");
        const { createGateProgress, renderGateReport } = await import("../output/gate-format.js");
        const progress = ctx.json ? null : createGateProgress(ctx.errStyle);
        // Steps lead their own process groups, so a Ctrl-C aimed at aop does not reach them: an interrupt
        // aborts the call, which kills them and records nothing (docs/evidence.md, "Interrupted runs").
        const interrupt = new AbortController();
        const interrupted = (signal: NodeJS.Signals) => {
          progress?.stop();
          interrupt.abort(signal);
        };
        process.once("SIGINT", interrupted);
        process.once("SIGTERM", interrupted);
        const args: Record<string, unknown> = { feature_id: opts.featureId, mode: opts.mode };
        if (opts.profile !== undefined) args.profile = opts.profile;
        let report: GateRunReport;
        try {
          report = await withClient(ctx, (call) =>
            call("gates.run", withOperationId(args, opts.operationId), { signal: interrupt.signal, ...(progress ? { onProgress: (e: unknown) => progress.onEvent(e as GateProgressEvent) } : {}) }),
          );
        } catch (err) {
          // A failed gate is an error result whose details are the run report (docs/replay.md, "Negative verdicts").
          if (isAopError(err) && err.code === "gate_failed" && !ctx.json) {
            ctx.out(renderGateReport(err.details as unknown as GateRunReport, ctx.style));
            return EXIT_FAILED;
          }
          if (!interrupt.signal.aborted) throw err;
          const signal = interrupt.signal.reason as NodeJS.Signals;
          if (ctx.json) reportError(err, true);
          else {
            const killed = (err as { details?: { steps_killed?: unknown } }).details?.steps_killed;
            const steps = typeof killed === "number" ? `${killed} running step${killed === 1 ? "" : "s"} killed` : "running steps killed";
            ctx.err(`interrupted by ${signal}: ${steps}; no evidence was written, and nothing was recorded for the operation id, so running it again runs the gate again`);
          }
          return signal === "SIGINT" ? 130 : 143;
        } finally {
          process.off("SIGINT", interrupted);
          process.off("SIGTERM", interrupted);
          progress?.stop();
        }
        if (ctx.json) ctx.printJson(report);
        else ctx.out(renderGateReport(report, ctx.style));
        return 0;
      }),
    );
}
