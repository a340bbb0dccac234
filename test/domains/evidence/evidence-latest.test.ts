import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findLatestEvidence, latestEvidence } from "../../../src/domains/evidence/evidence-latest.js";
import { buildChain, gateWorkspace, policyWith } from "../../helpers/gates.js";

const F = "feat_a";

describe("evidence.latest", () => {
  it("returns gate evidence even when chain.jsonl and the manifest are the newest files", async () => {
    const ws = await gateWorkspace();
    const runs = await buildChain(ws.layout, ws.clock, F, 3);
    const future = new Date(Date.now() + 3_600_000);
    fs.utimesSync(ws.layout.chainFile(F), future, future);
    fs.utimesSync(ws.layout.manifestFile(F), future, future);
    const latest = findLatestEvidence(ws.layout, { feature_id: F });
    expect(latest.evidence_path).toBe(runs[2]!.rel_path);
    expect(latest.evidence).toEqual(runs[2]!.evidence);
  });

  it("ranks by the recorded time, not by file mtime", async () => {
    const ws = await gateWorkspace();
    const runs = await buildChain(ws.layout, ws.clock, F, 3, { mode: (i) => ["fast", "full", "fast"][i]! });
    // Make the oldest file look the newest on disk.
    const future = new Date(Date.now() + 3_600_000);
    fs.utimesSync(path.join(ws.root, runs[0]!.rel_path), future, future);
    expect(findLatestEvidence(ws.layout, { feature_id: F }).evidence_path).toBe(runs[2]!.rel_path);
    expect(findLatestEvidence(ws.layout, { feature_id: F, mode: "full" }).evidence_path).toBe(runs[1]!.rel_path);
  });

  it("falls back to latest-<mode>.json when no gate file exists (older workspaces)", async () => {
    const ws = await gateWorkspace();
    fs.mkdirSync(ws.layout.evidenceDir(F), { recursive: true });
    fs.writeFileSync(ws.layout.latestEvidence(F, "fast"), JSON.stringify({ feature_id: F, mode: "fast", overall: "fail", finished_at: "2026-01-01T00:00:00.000Z" }));
    expect(findLatestEvidence(ws.layout, { feature_id: F })).toMatchObject({ mode: "fast", evidence_path: ".aop/features/feat_a/evidence/latest-fast.json", evidence: { overall: "fail" } });
  });

  it("skips an unreadable candidate with a warning and takes the next newest", async () => {
    const ws = await gateWorkspace();
    const runs = await buildChain(ws.layout, ws.clock, F, 2);
    fs.writeFileSync(path.join(ws.root, runs[1]!.rel_path), "\u0000garbage");
    fs.writeFileSync(ws.layout.latestEvidence(F, "full"), "not json either");
    const warnings: string[] = [];
    expect(findLatestEvidence(ws.layout, { feature_id: F }, (m) => warnings.push(m)).evidence_path).toBe(runs[0]!.rel_path);
    // The garbled latest copy has no recorded time, so it ranks last and is never reached.
    expect(warnings).toEqual([`${runs[1]!.rel_path} is not readable gate evidence; skipped`]);
  });

  it("reports evidence_not_found, feature_not_found and invalid ids clearly", async () => {
    const ws = await gateWorkspace();
    expect(() => findLatestEvidence(ws.layout, { feature_id: F })).toThrow(expect.objectContaining({ code: "evidence_not_found", hint: expect.stringMatching(/aop gates run/) }));
    await buildChain(ws.layout, ws.clock, F, 1);
    expect(() => findLatestEvidence(ws.layout, { feature_id: F, mode: "nightly" })).toThrow(expect.objectContaining({ code: "evidence_not_found", message: expect.stringMatching(/mode 'nightly'/) }));
    expect(() => findLatestEvidence(ws.layout, { feature_id: "ghost" })).toThrow(expect.objectContaining({ code: "feature_not_found" }));
    expect(() => findLatestEvidence(ws.layout, { feature_id: "../../x" })).toThrow(expect.objectContaining({ code: "invalid_argument" }));
    expect(() => findLatestEvidence(ws.layout, { feature_id: F, mode: "../x" })).toThrow(expect.objectContaining({ code: "invalid_argument" }));
  });

  it("with verify_on_read, a tampered chain fails the read with the chain's failure code", async () => {
    const ws = await gateWorkspace();
    const runs = await buildChain(ws.layout, ws.clock, F, 2);
    const policy = policyWith(true);
    policy.observability.evidence_integrity.verify_on_read = true;
    expect((await latestEvidence(ws.layout, ws.clock, policy, { feature_id: F })).evidence).toEqual(runs[1]!.evidence);
    // A newer gate file nobody chained is not vouched for: verify_on_read does not return it.
    const forged = { ...runs[1]!.evidence, finished_at: "2030-01-01T00:00:00.000Z" };
    fs.writeFileSync(ws.layout.gateEvidence(F, "full", Date.parse(forged.finished_at)), JSON.stringify(forged));
    expect((await latestEvidence(ws.layout, ws.clock, policy, { feature_id: F })).evidence).toEqual(runs[1]!.evidence);
    expect(findLatestEvidence(ws.layout, { feature_id: F }).evidence).toEqual(forged);
    fs.appendFileSync(path.join(ws.root, runs[0]!.rel_path), " ");
    await expect(latestEvidence(ws.layout, ws.clock, policy, { feature_id: F })).rejects.toMatchObject({ code: "evidence_chain_hash_mismatch" });
    // Without verify_on_read the read does not verify.
    expect((await latestEvidence(ws.layout, ws.clock, policyWith(true), { feature_id: F })).evidence.finished_at).toBe("2030-01-01T00:00:00.000Z");
  });
});
