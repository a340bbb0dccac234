// aop evidence verify: every chain named (or --all), with its attestations and newest anchor, one line
// per feature; exit 1 when any is invalid.
import type { Command } from "commander";
import type { EvidenceVerifyReport } from "../../../domains/attest/index.js";
import { isAopError } from "../../../core/errors.js";
import type { Origin } from "../../../domains/origins/index.js";
import type { CliContext } from "../program/context.js";
import { EXIT_FAILED } from "../program/exit-codes.js";
import { addFlags, type FlagSpec, type FlagValues } from "../flags/flags.js";
import { examples, runCommand, usageError } from "../program/run-command.js";

const MAX_ANCHOR_NOTE_BYTES = 64 * 1024;

const VERIFY_FLAGS = [
  { flag: "feature-id", value: "<id>", description: "the feature whose evidence to verify" },
  { flag: "all", description: "every feature that has a chain" },
  { flag: "anchor", value: "<file>", description: "also check the chain against this signed checkpoint (e.g. from refs/aop/anchors), with --feature-id" },
  { flag: "origin", value: "<name>", description: "verify a pulled workspace's evidence (aop sync pull), against this repository's public keys only" },
] as const satisfies readonly FlagSpec[];

export function register(evidence: Command): void {
  addFlags(evidence.command("verify").description("verify evidence: chains, attestations and newest anchors; one line per feature; exit 1 when any is invalid"), VERIFY_FLAGS)
    .addHelpText(
      "after",
      examples("aop evidence verify --feature-id feat_login", "aop evidence verify --all --json", "aop evidence verify --origin alice@laptop --all", "git show refs/aop/anchors:feat_login.note > a.note && aop evidence verify --feature-id feat_login --anchor a.note"),
    )
    .action(runCommand(verify));
}

async function verify(ctx: CliContext, opts: FlagValues<typeof VERIFY_FLAGS>): Promise<number> {
  const featureId = opts.featureId;
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
  if (opts.origin !== undefined) {
    const { requirePulled } = await import("../sessions/pulled-records.js");
    const origin = await requirePulled(ctx, opts.origin);
    return verifyPulled(ctx, origin, all ? null : featureId!, anchorNote);
  }
  const { chainedFeatureIds } = await import("../../../domains/evidence/index.js");
  const { createProgress } = await import("../output/progress.js");
  const progress = createProgress(undefined, { off: ctx.json });
  const ids = all ? chainedFeatureIds(ctx.layout) : [featureId!];
  const reports: EvidenceVerifyReport[] = [];
  const fixes = new Map<EvidenceVerifyReport, string>();
  try {
    const { withClient } = await import("../sessions/tool-session.js");
    await withClient(ctx, async (call) => {
      for (const id of ids) {
        const onProgress = (e: unknown) => {
          const { walked, expected, again } = e as { walked: number; expected: number | null; again?: string };
          // A second walk: the anchor's attestation digests did not hold, so every attestation is checked.
          const what = again === undefined ? "" : " again, checking every attestation in full";
          progress.update(`verifying ${id}${what}: ${walked}${expected === null ? "" : `/${expected}`} entries`);
        };
        const args = anchorNote === undefined ? { feature_id: id } : { feature_id: id, anchor_note: anchorNote };
        try {
          reports.push(await call("evidence.verify_chain", args, { onProgress }));
        } catch (err) {
          // A chain that does not verify is an error whose details are the verify report (docs/replay.md).
          const invalid = invalidReport(err);
          if (invalid === null || (ctx.json && !all)) throw err;
          reports.push(invalid.report);
          if (invalid.hint !== undefined) fixes.set(invalid.report, invalid.hint);
        }
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
  const { escapeControl } = await import("../output/escape.js");
  if (reports.length === 0) ctx.out("no feature has an evidence chain (chains are written when evidence integrity is on in policy)");
  for (const report of reports) {
    const hint = fixes.get(report);
    const fix = hint === undefined ? [] : [`    fix: ${escapeControl(hint)}`];
    ctx.out([renderVerifyLine(report, ctx.style), ...renderVerifyExtras(report, ctx.style), ...fix].join("\n"));
  }
  return valid ? 0 : EXIT_FAILED;
}

/**
 * A pulled workspace's chains, verified in place and read-only: its attestations and anchors count only
 * when signed by a key in this repository's agentic/orchestrator/keys/ (the origin's layout reads those),
 * never by one that came with the pull. Each line names the origin (docs/handoff.md).
 */
async function verifyPulled(ctx: CliContext, origin: Origin, featureId: string | null, anchorNote: string | undefined): Promise<number> {
  const { chainedFeatureIds } = await import("../../../domains/evidence/index.js");
  const { verifyEvidence } = await import("../../../domains/attest/index.js");
  const ids = featureId === null ? chainedFeatureIds(origin.layout) : [featureId];
  const reports: (EvidenceVerifyReport & { origin: string })[] = [];
  // A chain the store refuses (a special file, a link out of the folder) is named; the others are still verified.
  const unverified: { feature_id: string; code: string; message: string }[] = [];
  for (const id of ids) {
    try {
      const report = await verifyEvidence(origin.layout, ctx.clock, id, { frozen: true, ...(anchorNote === undefined ? {} : { anchorNote }) });
      reports.push({ ...report, origin: origin.label });
    } catch (err) {
      if (!isAopError(err) || featureId !== null) throw err;
      unverified.push({ feature_id: id, code: err.code, message: err.message });
    }
  }
  const valid = reports.every((r) => r.valid) && unverified.length === 0;
  if (ctx.json) {
    ctx.printJson(featureId === null ? { valid, origin: origin.label, features: reports, unverified } : reports[0]);
    return valid ? 0 : EXIT_FAILED;
  }
  const { renderVerifyLine } = await import("../output/evidence-format.js");
  const { renderVerifyExtras } = await import("../output/attest-format.js");
  ctx.out(ctx.style.dim(`origin ${origin.label} (${origin.display_name}, pulled ${origin.pulled_at} from ${origin.remote}, commit ${origin.commit.slice(0, 12)})`));
  if (reports.length === 0) ctx.out(`origin ${origin.label}: no feature has an evidence chain`);
  for (const report of reports) {
    const shown = { ...report, feature_id: `${origin.label}/${report.feature_id}` };
    ctx.out([renderVerifyLine(shown, ctx.style), ...renderVerifyExtras(report, ctx.style)].join("\n"));
  }
  for (const u of unverified) ctx.out(`${ctx.style.red("✗")} ${origin.label}/${u.feature_id}  ${ctx.style.red("NOT VERIFIED")}  ${u.code}\n    ${ctx.style.dim(u.message)}`);
  return valid ? 0 : EXIT_FAILED;
}

/** The verify report an evidence.verify_chain error carries (its hint apart), or null for any other error. */
function invalidReport(err: unknown): { report: EvidenceVerifyReport; hint: string | undefined } | null {
  if (!isAopError(err)) return null;
  const { hint, ...details } = err.details as Partial<EvidenceVerifyReport> & { hint?: unknown };
  if (details.valid !== false || typeof details.feature_id !== "string") return null;
  return { report: details as EvidenceVerifyReport, hint: typeof hint === "string" ? hint : undefined };
}
