// Gate evidence as the report marks it: which file a gates.run envelope names, and whether that file
// still holds the bytes its chain entry recorded. A view never shows an edited file as the verdict: the
// verdict is the record made when the gate ran (the timeline's result, state.md, the ledger envelope).
import { idProblem } from "../../core/ids.js";
import type { EvidenceTrust } from "../evidence/index.js";
import type { LedgerView, NamedEvidence } from "./report-types.js";

/** Judges an evidence file against its feature's chain: the evidence domain's EvidenceTrustJudge. */
export interface TrustJudge {
  judge(featureId: string, evidencePath: string): EvidenceTrust;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** The feature and evidence file a gates.run envelope names: in its data when the gate passed, in its error's details when it failed. */
export function evidenceNamedBy(envelopeJson: string): Omit<NamedEvidence, "trust"> | null {
  let value: unknown;
  try {
    value = JSON.parse(envelopeJson);
  } catch {
    return null; // cut at the embedding bound, or not JSON: it names nothing
  }
  if (!isObject(value)) return null;
  const body = value.ok === true ? value.data : isObject(value.error) ? value.error.details : null;
  if (!isObject(body)) return null;
  const featureId = body.feature_id;
  const file = body.evidence_path;
  if (typeof featureId !== "string" || idProblem(featureId) !== null || typeof file !== "string" || file === "") return null;
  return { feature_id: featureId, path: file };
}

/** The envelope with the evidence file it names and that file's mark, for a recorded gates.run call. */
export function markLedgerEvidence(view: LedgerView, judge: TrustJudge): LedgerView {
  if (view.status !== "recorded" || view.tool_name !== "gates.run" || view.envelope_json === undefined) return view;
  const named = evidenceNamedBy(view.envelope_json);
  return named ? { ...view, evidence: { ...named, trust: judge.judge(named.feature_id, named.path) } } : view;
}
