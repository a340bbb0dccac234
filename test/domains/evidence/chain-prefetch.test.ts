// The walk with another thread's verdicts (chain-verify.ts ArtifactPrefetch): whichever entries the other
// side claims, and whatever it answers, the report is the one the walk gives alone. A stand-in prefetch
// here claims entries from a given sequence on and answers with the same entry check the worker runs.
import fs from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { sha256Of } from "../../../src/core/hash.js";
import { checkChainEntry, isFailure } from "../../../src/domains/evidence/chain-entry-check.js";
import type { ChainEntry } from "../../../src/domains/evidence/chain-hash.js";
import { GENESIS_HASH } from "../../../src/domains/evidence/chain-hash.js";
import { verifyChain, type ArtifactPrefetch, type ChainVerifyInput, type PrefetchedVerdict } from "../../../src/domains/evidence/chain-verify.js";
import { workspaceReader } from "../../../src/domains/evidence/evidence-reader.js";
import type { WrittenEvidence } from "../../../src/domains/evidence/evidence-files.js";
import { buildChain, chainLines, gateWorkspace, writeChainLines, type GateWorkspace } from "../../helpers/gates.js";

const F = "feat_a";
const RUNS = 10;
let ws: GateWorkspace;
let runs: WrittenEvidence[];

function input(prefetch?: ArtifactPrefetch): ChainVerifyInput & { seen: number[] } {
  const lines = chainLines(ws.layout, F);
  const last = JSON.parse(lines[RUNS - 1]!) as ChainEntry;
  const seen: number[] = [];
  return {
    feature_id: F,
    evidence_dir: ws.layout.relative(ws.layout.evidenceDir(F)),
    chain_rel_path: ws.layout.relative(ws.layout.chainFile(F)),
    manifest_rel_path: ws.layout.relative(ws.layout.manifestFile(F)),
    chain_exists: true,
    manifest: { status: "present", entry_count: RUNS, head_hash: last.chain_hash },
    lines: lines.map((text) => ({ text, complete: true })),
    latest: [{ mode: "full", rel_path: ws.layout.relative(ws.layout.latestEvidence(F, "full")), bytes: fs.readFileSync(ws.layout.latestEvidence(F, "full")) }],
    files: workspaceReader(ws.layout, new Set()),
    observer: { entry: (entry) => void seen.push(entry.sequence) },
    ...(prefetch ? { prefetch } : {}),
    seen,
  };
}

/** Claims every entry from `from` on; answers as the worker does, or with `answer`'s override. */
function standIn(from: number, answer?: (sequence: number, verdict: PrefetchedVerdict) => PrefetchedVerdict | null): ArtifactPrefetch & { taken: number } {
  const lines = chainLines(ws.layout, F);
  const files = workspaceReader(ws.layout, new Set());
  const ctx = { feature_id: F, evidence_dir: ws.layout.relative(ws.layout.evidenceDir(F)), chain_rel_path: ws.layout.relative(ws.layout.chainFile(F)) };
  return {
    taken: 0,
    claim: (sequence) => sequence < from,
    take(sequence, prev) {
      this.taken++;
      const linkedTo = sequence === 0 ? GENESIS_HASH : ((JSON.parse(lines[sequence - 1]!) as ChainEntry).chain_hash ?? "");
      if (linkedTo !== prev) return null;
      const checked = checkChainEntry(ctx, files, lines[sequence]!, sequence, prev);
      const verdict: PrefetchedVerdict = isFailure(checked) ? { failure: checked } : { logs: checked.logs, mode: checked.mode, epochMs: checked.epochMs };
      return answer ? answer(sequence, verdict) : verdict;
    },
  };
}

/** The report alone and with the stand-in claiming from each sequence: all equal, entries seen in order. */
function expectSameEveryWay() {
  const alone = input();
  const expected = verifyChain(alone);
  for (let from = 0; from <= RUNS; from++) {
    const prefetch = standIn(from);
    const split = input(prefetch);
    expect(verifyChain(split), `claimed from ${from}`).toEqual(expected);
    expect(split.seen).toEqual(alone.seen);
  }
  return expected;
}

beforeEach(async () => {
  ws = await gateWorkspace();
  runs = await buildChain(ws.layout, ws.clock, F, RUNS);
});

describe("the walk with another thread's verdicts", () => {
  it("a clean chain: valid, every entry seen once in order, the other side's verdicts used", () => {
    expect(expectSameEveryWay()).toMatchObject({ valid: true, entry_count: RUNS });
    const prefetch = standIn(4);
    verifyChain(input(prefetch));
    expect(prefetch.taken).toBe(RUNS - 4);
  });

  it("an artifact changed on either side of the split: the first failure is reported", () => {
    for (const k of [2, 7]) {
      fs.writeFileSync(ws.layout.resolveInside(runs[k]!.rel_path)!, "changed");
      expect(expectSameEveryWay()).toMatchObject({ valid: false, first_failure_sequence: 2, failure_code: "evidence_chain_hash_mismatch" });
    }
  });

  it("a broken line after an artifact the other side failed: the earlier failure wins", () => {
    fs.writeFileSync(ws.layout.resolveInside(runs[6]!.rel_path)!, "changed");
    const lines = chainLines(ws.layout, F);
    lines[8] = "not json";
    writeChainLines(ws.layout, F, lines);
    expect(expectSameEveryWay()).toMatchObject({ valid: false, first_failure_sequence: 6, failure_code: "evidence_chain_hash_mismatch" });
  });

  it("an entry relinked in the other side's range: caught at its sequence", () => {
    const lines = chainLines(ws.layout, F);
    const entry = JSON.parse(lines[5]!) as ChainEntry;
    lines[5] = JSON.stringify({ ...entry, artifact_hash: sha256Of("x") });
    writeChainLines(ws.layout, F, lines);
    expect(expectSameEveryWay()).toMatchObject({ valid: false, first_failure_sequence: 5 });
  });

  it("no verdict from the other side (it stopped, or linked elsewhere): the walk checks the entry itself", () => {
    fs.writeFileSync(ws.layout.resolveInside(runs[7]!.rel_path)!, "changed");
    const expected = verifyChain(input());
    expect(verifyChain(input(standIn(3, () => null)))).toEqual(expected);
    expect(expected).toMatchObject({ first_failure_sequence: 7 });
  });
});
