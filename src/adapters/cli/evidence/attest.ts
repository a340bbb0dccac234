// aop evidence attest: sign an in-toto attestation of one gate run (evidence.attest), optionally as a
// Sigstore bundle, and copy it to --out.
import type { Command } from "commander";
import { examples, runCommand } from "../program/run-command.js";

export function register(evidence: Command): void {
  evidence
    .command("attest")
    .description("sign a DSSE in-toto attestation of a gate run (default: the newest) and keep it beside the evidence")
    .requiredOption("--feature-id <id>", "feature whose gate run to attest")
    .option("--gate <file>", "gate-<mode>-<epoch_ms>.json to attest, by name or workspace-relative path")
    .option("--bundle", "also write it as a Sigstore bundle v0.3 (.sigstore.json) for @sigstore/verify and cosign")
    .option("--out <file>", "also copy the envelope (or, with --bundle, the bundle) to this file")
    .option("--operation-id <id>", "idempotency key (default: a fresh one)")
    .addHelpText("after", examples("aop evidence attest --feature-id feat_login", "aop evidence attest --feature-id feat_login --bundle --out login.sigstore.json"))
    .action(
      runCommand(async (ctx, opts) => {
        const { callTool, withOperationId } = await import("../sessions/tool-session.js");
        const args: Record<string, unknown> = { feature_id: opts.featureId };
        if (opts.gate !== undefined) args.gate = opts.gate;
        if (opts.bundle === true) args.bundle = true;
        const report = await callTool(ctx, "evidence.attest", withOperationId(args, opts.operationId));
        if (typeof opts.out === "string") {
          const { writeFileAtomic } = await import("../../../store/atomic-write.js");
          const content = opts.bundle === true ? JSON.stringify(report.bundle, null, 2) + "\n" : JSON.stringify(report.envelope) + "\n";
          writeFileAtomic(opts.out, content, { mode: 0o644 });
        }
        if (ctx.json) return ctx.printJson(report);
        const { renderAttest } = await import("../output/attest-format.js");
        ctx.out(renderAttest(report, typeof opts.out === "string" ? opts.out : null, ctx.style));
      }),
    );
}
