// aop evidence latest | verify | attest | anchor | prove | reset-chain: the newest gate evidence of a feature, its
// verification (chain, attestations, anchors), and the signed evidence (evidence/*.ts, one file each).
import type { Command } from "commander";
import { examples, runCommand } from "../program/run-command.js";
import { register as registerAnchor } from "../evidence/anchor.js";
import { register as registerAttest } from "../evidence/attest.js";
import { register as registerProve } from "../evidence/prove.js";
import { register as registerResetChain } from "../evidence/reset-chain.js";
import { register as registerVerify } from "../evidence/verify.js";

export function register(program: Command, summary: string): void {
  const evidence = program
    .command("evidence")
    .description(summary)
    .addHelpText("after", examples("aop evidence latest --feature-id feat_login", "aop evidence verify --all", "aop evidence anchor --feature-id feat_login"));

  evidence
    .command("latest")
    .description("show the newest gate evidence of a feature (by the time it records, not file time)")
    .requiredOption("--feature-id <id>", "feature whose evidence to show")
    .option("--mode <mode>", "only evidence of this mode")
    .addHelpText("after", examples("aop evidence latest --feature-id feat_login", "aop evidence latest --feature-id feat_login --mode full --json"))
    .action(
      runCommand(async (ctx, opts) => {
        const { callTool } = await import("../sessions/tool-session.js");
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

  registerVerify(evidence);
  registerAttest(evidence);
  registerAnchor(evidence);
  registerProve(evidence);
  registerResetChain(evidence);
}
