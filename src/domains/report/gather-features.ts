// Features for the report: status from the index, title and gate results from each state.md, the
// evidence chain verified read-only (the manifest's last_verified_* fields are left alone), and each
// gate's evidence file judged against its chain entry.
import type { Clock } from "../../core/clock.js";
import { idProblem } from "../../core/ids.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { chainedFeatureIds, verifyFeatureChain, type ChainVerifyReport } from "../evidence/index.js";
import { FEATURE_STATUSES, readIndex, readState } from "../features/index.js";
import type { TrustJudge } from "./evidence-marks.js";
import type { ChainView, FeaturesView, FeatureView, GateView } from "./report-types.js";
import { compareText } from "../../core/compare-text.js";

const NO_CHAIN: ChainView = {
  status: "none", entry_count: 0, head_hash: null, first_failure_sequence: null, failure_code: null, failure_reason: null, artifact: null, expected_hash: null, actual_hash: null,
};

function chainView(report: ChainVerifyReport): ChainView {
  return {
    status: report.valid ? "valid" : "invalid",
    entry_count: report.entry_count,
    head_hash: report.head_hash,
    first_failure_sequence: report.first_failure_sequence,
    failure_code: report.failure_code,
    failure_reason: report.failure_reason,
    artifact: report.artifact_rel_path,
    expected_hash: report.expected_hash,
    actual_hash: report.actual_hash,
  };
}

async function verify(layout: WorkspaceLayout, clock: Clock, featureId: string): Promise<ChainView> {
  try {
    return chainView(await verifyFeatureChain(layout, clock, featureId, { recordResult: false }));
  } catch (err) {
    return { ...NO_CHAIN, status: "unverifiable", failure_reason: err instanceof Error ? err.message : String(err) };
  }
}

function gatesOf(featureId: string, gates: Record<string, unknown>, judge: TrustJudge): GateView[] {
  return Object.entries(gates)
    .map(([mode, g]) => {
      const r = (g ?? {}) as Record<string, unknown>;
      const text = (x: unknown) => (typeof x === "string" ? x : "");
      const evidence = text(r.evidence);
      return { mode, result: text(r.result), at: text(r.at), evidence, evidence_trust: evidence === "" ? null : judge.judge(featureId, evidence) };
    })
    .sort((a, b) => compareText(a.mode, b.mode));
}

export async function gatherFeatures(layout: WorkspaceLayout, clock: Clock, integrityEnabled: boolean, judge: TrustJudge): Promise<FeaturesView> {
  const out: FeaturesView = { integrity_enabled: integrityEnabled, problem: null, items: [] };
  const listed: { id: string; status: string }[] = [];
  try {
    const index = readIndex(layout, clock);
    for (const status of FEATURE_STATUSES) for (const id of index[status]) listed.push({ id, status });
  } catch (err) {
    out.problem = err instanceof Error ? err.message : String(err);
  }
  let chained: string[] = [];
  try {
    chained = chainedFeatureIds(layout);
  } catch (err) {
    out.problem ??= `evidence folders cannot be listed: ${err instanceof Error ? err.message : String(err)}`;
  }
  // A feature with evidence but missing from the index is still shown (the doctor reports the index).
  for (const id of chained) if (!listed.some((f) => f.id === id)) listed.push({ id, status: "not in index" });
  const seen = new Set<string>();
  for (const { id, status } of listed) {
    if (seen.has(id)) continue;
    seen.add(id);
    const item: FeatureView = { feature_id: id, title: "", status, version: null, updated_at: null, problem: null, gates: [], chain: NO_CHAIN };
    if (idProblem(id) !== null) {
      item.problem = `not a valid feature id (${idProblem(id)})`;
      out.items.push(item);
      continue;
    }
    try {
      const doc = await readState(layout, id);
      if (doc) {
        item.title = doc.state.title;
        item.version = doc.state.version;
        item.updated_at = doc.state.updated_at;
        item.gates = gatesOf(id, doc.state.gates, judge);
      } else item.problem = "state.md is missing";
    } catch (err) {
      item.problem = err instanceof Error ? err.message : String(err);
    }
    if (chained.includes(id)) item.chain = await verify(layout, clock, id);
    out.items.push(item);
  }
  return out;
}
