import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EvidenceTrustJudge } from "../../../src/domains/evidence/index.js";
import { recordGateResult } from "../../../src/domains/features/index.js";
import { evidenceNamedBy, markLedgerEvidence, type TrustJudge } from "../../../src/domains/report/evidence-marks.js";
import { gatherFeatures } from "../../../src/domains/report/gather-features.js";
import type { LedgerView } from "../../../src/domains/report/report-types.js";
import { buildChain, gateWorkspace } from "../../helpers/gates.js";

const EVIDENCE = ".aop/features/feat_a/evidence/gate-fast-1.json";

describe("the evidence file a gates.run envelope names", () => {
  it("from its data when the gate passed, from its error's details when it failed", () => {
    expect(evidenceNamedBy(JSON.stringify({ ok: true, data: { feature_id: "feat_a", overall: "pass", evidence_path: EVIDENCE } }))).toEqual({ feature_id: "feat_a", path: EVIDENCE });
    const failed = { ok: false, error: { code: "gate_failed", message: "m", details: { feature_id: "feat_a", overall: "fail", evidence_path: EVIDENCE } } };
    expect(evidenceNamedBy(JSON.stringify(failed))).toEqual({ feature_id: "feat_a", path: EVIDENCE });
  });

  it("none from an envelope cut at the bound, one without a path, or one naming an invalid feature id", () => {
    const whole = JSON.stringify({ ok: true, data: { feature_id: "feat_a", evidence_path: EVIDENCE } });
    expect(evidenceNamedBy(whole.slice(0, 30))).toBeNull();
    expect(evidenceNamedBy(JSON.stringify({ ok: false, error: { code: "invalid_argument", message: "m" } }))).toBeNull();
    expect(evidenceNamedBy(JSON.stringify({ ok: true, data: { feature_id: "../x", evidence_path: EVIDENCE } }))).toBeNull();
    expect(evidenceNamedBy(JSON.stringify({ ok: true, data: { feature_id: "feat_a", evidence_path: "" } }))).toBeNull();
    expect(evidenceNamedBy("[1]")).toBeNull();
  });

  it("is judged only for recorded gates.run envelopes", () => {
    const asked: string[] = [];
    const judge: TrustJudge = { judge: (f, p) => (asked.push(`${f} ${p}`), { status: "chained", chain_sequence: 3 }) };
    const envelope = JSON.stringify({ ok: true, data: { feature_id: "feat_a", evidence_path: EVIDENCE } });
    const view: LedgerView = { status: "recorded", operation_id: "op-1", tool_name: "gates.run", envelope_json: envelope, truncated: false };
    expect(markLedgerEvidence(view, judge).evidence).toEqual({ feature_id: "feat_a", path: EVIDENCE, trust: { status: "chained", chain_sequence: 3 } });
    expect(markLedgerEvidence({ ...view, tool_name: "feature.init" }, judge).evidence).toBeUndefined();
    expect(markLedgerEvidence({ status: "missing", operation_id: "op-2" }, judge).evidence).toBeUndefined();
    expect(asked).toEqual([`feat_a ${EVIDENCE}`]);
  });
});

describe("a feature's gates in the report", () => {
  it("carry how their evidence files compare with the chain: chained, then modified once a file is edited", async () => {
    const ws = await gateWorkspace();
    const runs = await buildChain(ws.layout, ws.clock, "feat_a", 2, { mode: (i) => ["fast", "full"][i]! });
    for (const r of runs) await recordGateResult(ws.layout, ws.clock, "feat_a", r.evidence.mode, { result: r.evidence.overall, evidence: r.rel_path, at: r.evidence.finished_at! });
    const before = await gatherFeatures(ws.layout, ws.clock, true, new EvidenceTrustJudge(ws.layout));
    expect(before.items[0]!.chain.status).toBe("valid");
    expect(before.items[0]!.gates.map((g) => [g.mode, g.evidence_trust])).toEqual([
      ["fast", { status: "chained", chain_sequence: 0 }],
      ["full", { status: "chained", chain_sequence: 1 }],
    ]);
    const file = path.join(ws.root, runs[1]!.rel_path);
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('"overall": "pass"', '"overall": "fail"'));
    const after = await gatherFeatures(ws.layout, ws.clock, true, new EvidenceTrustJudge(ws.layout));
    expect(after.items[0]!.chain).toMatchObject({ status: "invalid", first_failure_sequence: 1 });
    const full = after.items[0]!.gates.find((g) => g.mode === "full")!;
    // The result stays the one state.md recorded when the gate ran; the file is only marked.
    expect(full).toMatchObject({ result: "pass", evidence_trust: { status: "modified", chain_sequence: 1, expected_hash: runs[1]!.chain!.artifact_hash, actual_hash: expect.stringMatching(/^sha256:/) } });
    expect(full.evidence_trust).not.toMatchObject({ actual_hash: runs[1]!.chain!.artifact_hash });
  });
});
