// Human renderings of attestations, anchors and the attestation/anchor part of a verification.
import type { AnchorResult, AttestReport, EvidenceVerifyReport } from "../../../domains/attest/index.js";
import type { Style } from "./style.js";

const short = (s: string | null, n = 12) => (s === null ? "none" : s.length > n ? `${s.slice(0, n)}…` : s);

/** Only the fields shown: the tool's result (ToolResult<"evidence.attest">) carries them. */
export type AttestSummary = Pick<AttestReport, "chain_sequence" | "gate_path" | "attestation_path" | "created" | "bundle_path" | "keyid">;

export function renderAttest(r: AttestSummary, out: string | null, style: Style): string {
  const vouched = r.chain_sequence === null ? style.dim("(no chain: attested as it is)") : style.dim(`(chain entry ${r.chain_sequence})`);
  const lines = [`attested ${r.gate_path}  ${vouched}`, `  attestation  ${r.attestation_path}  ${style.dim(r.created ? "(new)" : "(already there)")}`];
  if (r.bundle_path !== null) lines.push(`  bundle       ${r.bundle_path}`);
  if (out !== null) lines.push(`  copied to    ${out}`);
  lines.push(`  key          ${r.keyid}`);
  return lines.join("\n");
}

export function renderAnchor(r: AnchorResult, style: Style): string {
  const state = r.created ? "anchored" : style.dim("already anchored");
  const git = r.git === null ? "" : `  ${r.git.ref} ${r.git.commit.slice(0, 12)}${r.git.signed ? " (signed)" : ""}`;
  return `${r.feature_id}  ${state}  ${r.tree_size} ${r.tree_size === 1 ? "entry" : "entries"}  root ${r.root}  key ${short(r.keyid)}  ${r.anchors_path}${git}`;
}

/** Extra lines under a verification line: only when attestations or anchors exist. */
export function renderVerifyExtras(report: EvidenceVerifyReport, style: Style): string[] {
  const lines: string[] = [];
  const a = report.attestations;
  if (a.checked > 0 || (a.unattested > 0 && report.anchors.length > 0)) {
    const parts = [`${a.valid} valid file${a.valid === 1 ? "" : "s"}`, ...(a.failed > 0 ? [style.red(`${a.failed} failed`)] : []), ...(a.unattested > 0 ? [`${a.unattested} gate run${a.unattested === 1 ? "" : "s"} unattested`] : [])];
    lines.push(`    attestations  ${parts.join(", ")}`);
    for (const f of a.failures) lines.push(`      ${style.red("✗")} ${f.path}  ${f.code}${f.sequence === null ? "" : `  sequence ${f.sequence}`}  ${style.dim(f.reason)}`);
  }
  for (const anchor of report.anchors) {
    const mark = anchor.valid ? style.green("✓") : style.red("✗");
    const size = anchor.tree_size === null ? "" : `  ${anchor.tree_size} ${anchor.tree_size === 1 ? "entry" : "entries"}`;
    const head = `    anchor        ${mark} ${anchor.source}${size}  root ${short(anchor.root, 16)}${anchor.keyid ? `  key ${short(anchor.keyid)}` : ""}`;
    lines.push(anchor.valid ? head : `${head}  ${anchor.failure_code}`);
    if (anchor.valid) continue;
    // The top line already gives the reason when this anchor is the verdict's failure.
    if (!report.failure_reason?.startsWith(`anchor ${anchor.source}:`)) lines.push(`      ${style.dim(anchor.failure_reason ?? "")}`);
    if (anchor.current_root !== null) lines.push(`      ${style.dim(`anchored root ${anchor.root}, today ${anchor.current_root}`)}`);
  }
  return lines;
}
