// Finds the evidence a gates.run call wrote and judges it against its feature's chain, for one export
// pass (docs/otel.md, "Gate runs"): whether its contents are still what the gate produced.
import type { WorkspaceLayout } from "../../store/layout.js";
import { EvidenceTrustJudge, findGateEvidenceBetween } from "../evidence/index.js";
import type { GateEvidenceLookup } from "./run-spans.js";

/** Timeline times and this clock are one machine's; this covers their millisecond rounding. */
const CHAIN_READ_SLACK_MS = 1_000;

export function gateEvidenceLookup(layout: WorkspaceLayout): GateEvidenceLookup {
  // One judge reads each feature's chain once. A call recorded after it was made may name evidence chained
  // since (a gate that finished during this pass): such a file found unchained is judged again afresh.
  let judge: EvidenceTrustJudge | null = null;
  let judgeSince = 0;
  const freshJudge = (): EvidenceTrustJudge => {
    judgeSince = Date.now();
    return (judge = new EvidenceTrustJudge(layout));
  };
  return (entry, startMs, endMs) => {
    if (entry.feature_id === null) return null;
    // The evidence file is named by the time it was recorded, inside the call's span (ms resolution).
    const found = findGateEvidenceBetween(layout, entry.feature_id, Math.floor(startMs) - 1, Math.ceil(endMs) + 1);
    if (found === null) return null;
    // Read first, judged second: a file edited in between is judged modified, never trusted.
    let trust = (judge ?? freshJudge()).judge(entry.feature_id, found.evidence_path);
    if (trust.status === "not_chained" && endMs >= judgeSince - CHAIN_READ_SLACK_MS) trust = freshJudge().judge(entry.feature_id, found.evidence_path);
    return { mode: found.mode, evidence_path: found.evidence_path, evidence: found.evidence, trust: trust.status };
  };
}
