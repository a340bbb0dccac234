// aop evidence latest | verify | attest | anchor | prove: the newest gate evidence of a feature, its
// verification (chain, attestations, anchors), and the signed evidence (evidence/*.ts, one file each).
import type { Command } from "commander";
import { EXIT_FAILED } from "../exit-codes.js";
import { examples, runCommand, usageError } from "../run-command.js";
import type { EvidenceVerifyReport } from "../../../domains/attest/index.js";
import { register as registerAnchor } from "../evidence/anchor.js";
import { register as registerAttest } from "../evidence/attest.js";
import { register as registerProve } from "../evidence/prove.js";

const MAX_ANCHOR_NOTE_BYTES = 64 * 1024;

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
    .description("verify evidence: chains, attestations and newest anchors; one line per feature; exit 1 when any is invalid")
    .option("--feature-id <id>", "the feature whose evidence to verify")
    .option("--all", "every feature that has a chain")
    .option("--anchor <file>", "also check the chain against this signed checkpoint (e.g. from refs/aop/anchors), with --feature-id")
    .addHelpText(
      "after",
      examples("aop evidence verify --feature-id feat_login", "aop evidence verify --all --json", "git show refs/aop/anchors:feat_login.note > a.note && aop evidence verify --feature-id feat_login --anchor a.note"),
    )
    .action(
      runCommand(async (ctx, opts) => {
        const featureId = opts.featureId as string | undefined;
        const all = opts.all === true;
        if ((featureId === undefined) === !all) throw usageError("give either --feature-id <id> or --all", "aop evidence verify --feature-id feat_login");
        if (all && opts.anchor !== undefined) throw usageError("--anchor names one feature's checkpoint: use it with --feature-id");
        let anchorNote: string | undefined;
        if (typeof opts.anchor === "string") {
          const { readTextBounded } = await import("../../../store/read-text-bounded.js");
          const read = readTextBounded(opts.anchor, MAX_ANCHOR_NOTE_BYTES);
          if (read.status !== "ok" || read.truncated || read.binary || read.text === "") throw usageError(`--anchor ${opts.anchor}: not a readable signed checkpoint (at most ${MAX_ANCHOR_NOTE_BYTES} bytes of text)`);
          anchorNote = read.text;
        }
        const { withClient } = await import("../tool-session.js");
        const { chainedFeatureIds } = await import("../../../domains/evidence/index.js");
        const { createProgress } = await import("../output/progress.js");
        const progress = createProgress(process.stderr, !ctx.json && process.stderr.isTTY === true);
        const ids = all ? chainedFeatureIds(ctx.layout) : [featureId!];
        const reports: EvidenceVerifyReport[] = [];
        try {
          await withClient(ctx, async (call) => {
            for (const id of ids) {
              const onProgress = (e: unknown) => {
                const { walked, expected } = e as { walked: number; expected: number | null };
                progress.update(`verifying ${id}: ${walked}${expected === null ? "" : `/${expected}`} entries`);
              };
              const args = anchorNote === undefined ? { feature_id: id } : { feature_id: id, anchor_note: anchorNote };
              reports.push(await call("evidence.verify_chain", args, { onProgress }));
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
        const { renderVerifyExtras } = await import("../output/attest-format.js");
        if (reports.length === 0) ctx.out("no feature has an evidence chain (chains are written when evidence integrity is on in policy)");
        for (const report of reports) ctx.out([renderVerifyLine(report, ctx.style), ...renderVerifyExtras(report, ctx.style)].join("\n"));
        return valid ? 0 : EXIT_FAILED;
      }),
    );

  registerAttest(evidence);
  registerAnchor(evidence);
  registerProve(evidence);
}
