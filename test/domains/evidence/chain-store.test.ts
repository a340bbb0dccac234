import fs from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AopError } from "../../../src/core/errors.js";
import { appendChainEntryLocked } from "../../../src/domains/evidence/chain-store.js";
import { readManifest } from "../../../src/domains/evidence/chain-manifest.js";
import { readJsonlTail, readJsonlTailForAppend } from "../../../src/store/jsonl-tail.js";
import { GENESIS_HASH, type ChainEntry } from "../../../src/domains/evidence/chain-hash.js";
import { verifyFeatureChain } from "../../../src/domains/evidence/evidence-verify.js";
import { buildChain, chainLines, gateWorkspace, writeChainLines } from "../../helpers/gates.js";
import { tempDir } from "../../helpers/tmp.js";
import { bySuite } from "../../helpers/soak.js";
import path from "node:path";
import type { WorkspaceLayout } from "../../../src/store/layout.js";

const F = "feat_a";

describe("chain store", () => {
  it("starts at sequence 0 from the genesis hash and keeps the manifest's head and count", async () => {
    const ws = await gateWorkspace();
    await buildChain(ws.layout, ws.clock, F, 3);
    const entries = chainLines(ws.layout, F).map((l) => JSON.parse(l) as ChainEntry);
    expect(entries.map((e) => e.sequence)).toEqual([0, 1, 2]);
    expect(entries[0]!.prev_chain_hash).toBe(GENESIS_HASH);
    expect(readManifest(ws.layout, F).manifest).toMatchObject({ entry_count: 3, head_hash: entries[2]!.chain_hash });
  });

  // 1,000 runs in the soak run (test/helpers/soak.ts); progress is reported every 250 either way.
  const RUNS = bySuite(500, 1000);
  it(`an untampered chain of ${RUNS.toLocaleString("en-US")} gate runs verifies`, async () => {
    const ws = await gateWorkspace();
    await buildChain(ws.layout, ws.clock, F, RUNS, { mode: (i) => ["fast", "full", "nightly"][i % 3]! });
    const seen: number[] = [];
    const report = await verifyFeatureChain(ws.layout, ws.clock, F, { onProgress: (walked) => seen.push(walked) });
    expect(report).toMatchObject({ valid: true, entry_count: RUNS, first_failure_sequence: null, failure_code: null });
    expect(seen.at(-1)).toBe(RUNS);
  }, 60_000);

  it("torn tail: verify fails closed on it, the next append cuts it off and continues the sequence", async () => {
    const ws = await gateWorkspace();
    await buildChain(ws.layout, ws.clock, F, 3);
    fs.appendFileSync(ws.layout.chainFile(F), '{"algorithm_version":1,"sequence":3,"feature_id":"fe'); // a write cut short
    expect(await verifyFeatureChain(ws.layout, ws.clock, F)).toMatchObject({ valid: false, first_failure_sequence: 3, failure_code: "evidence_chain_discontinuity", failure_reason: expect.stringMatching(/torn/) });
    const warnings: string[] = [];
    const [next] = await buildChain(ws.layout, ws.clock, F, 1, { warn: (m) => warnings.push(m) });
    expect(next!.chain!.sequence).toBe(3);
    expect(warnings.join("\n")).toMatch(/removed \d+ bytes of an interrupted append/);
    expect(await verifyFeatureChain(ws.layout, ws.clock, F)).toMatchObject({ valid: true, entry_count: 4 });
  });

  it("several entries the manifest lags behind (a power loss before its rename reached disk) are counted if they continue its head", async () => {
    const ws = await gateWorkspace();
    await buildChain(ws.layout, ws.clock, F, 2);
    const manifestBefore = fs.readFileSync(ws.layout.manifestFile(F));
    await buildChain(ws.layout, ws.clock, F, 3);
    fs.writeFileSync(ws.layout.manifestFile(F), manifestBefore);
    const warnings: string[] = [];
    const [next] = await buildChain(ws.layout, ws.clock, F, 1, { warn: (m) => warnings.push(m) });
    expect(next!.chain!.sequence).toBe(5);
    expect(warnings.join("\n")).toMatch(/3 entries were appended but not counted/);
    expect(await verifyFeatureChain(ws.layout, ws.clock, F)).toMatchObject({ valid: true, entry_count: 6 });
  });

  it("with no manifest at all, uncounted entries are counted only if they start from genesis", async () => {
    const ws = await gateWorkspace();
    await buildChain(ws.layout, ws.clock, F, 2);
    fs.rmSync(ws.layout.manifestFile(F));
    const [next] = await buildChain(ws.layout, ws.clock, F, 1);
    expect(next!.chain!.sequence).toBe(2);
    expect(await verifyFeatureChain(ws.layout, ws.clock, F)).toMatchObject({ valid: true, entry_count: 3 });
  });

  it("refuses to count uncounted entries that do not continue the recorded head", async () => {
    const ws = await gateWorkspace();
    await buildChain(ws.layout, ws.clock, F, 2);
    const manifestBefore = fs.readFileSync(ws.layout.manifestFile(F));
    await buildChain(ws.layout, ws.clock, F, 2);
    fs.writeFileSync(ws.layout.manifestFile(F), manifestBefore);
    const lines = chainLines(ws.layout, F);
    lines[2] = JSON.stringify({ ...JSON.parse(lines[2]!), created_at: "2020-01-01T00:00:00.000Z", artifact_hash: `sha256:${"0".repeat(64)}` });
    writeChainLines(ws.layout, F, lines);
    await expect(buildChain(ws.layout, ws.clock, F, 1)).rejects.toMatchObject({ code: "evidence_chain_discontinuity" });
  });

  it("an entry appended but not yet counted: verify reports it, the next append counts it", async () => {
    const ws = await gateWorkspace();
    await buildChain(ws.layout, ws.clock, F, 3);
    const manifestBefore = fs.readFileSync(ws.layout.manifestFile(F));
    await buildChain(ws.layout, ws.clock, F, 1);
    fs.writeFileSync(ws.layout.manifestFile(F), manifestBefore); // as if killed between the line and the manifest
    expect(await verifyFeatureChain(ws.layout, ws.clock, F)).toMatchObject({ valid: false, first_failure_sequence: 3, failure_code: "evidence_chain_discontinuity", failure_reason: expect.stringMatching(/not counted by the manifest/) });
    const warnings: string[] = [];
    const [next] = await buildChain(ws.layout, ws.clock, F, 1, { warn: (m) => warnings.push(m) });
    expect(next!.chain!.sequence).toBe(4);
    expect(warnings.join("\n")).toMatch(/1 entry was appended but not counted/);
    expect(await verifyFeatureChain(ws.layout, ws.clock, F)).toMatchObject({ valid: true, entry_count: 5 });
  });

  it("refuses to append over a truncated chain instead of laundering it into a new head", async () => {
    const ws = await gateWorkspace();
    await buildChain(ws.layout, ws.clock, F, 4);
    writeChainLines(ws.layout, F, chainLines(ws.layout, F).slice(0, 2));
    const before = fs.readFileSync(ws.layout.chainFile(F));
    await expect(buildChain(ws.layout, ws.clock, F, 1)).rejects.toMatchObject({ code: "evidence_chain_discontinuity", message: expect.stringMatching(/does not match the manifest \(4 entries/) });
    expect(fs.readFileSync(ws.layout.chainFile(F)).equals(before)).toBe(true);
  });

  it.each([
    ["the chain is deleted", (ws: { layout: WorkspaceLayout }) => fs.rmSync(ws.layout.chainFile(F)), /chain is missing but the manifest records 2/],
    ["the manifest is garbled", (ws: { layout: WorkspaceLayout }) => fs.writeFileSync(ws.layout.manifestFile(F), "{"), /manifest cannot be trusted/],
    ["the last line is garbage", (ws: { layout: WorkspaceLayout }) => fs.appendFileSync(ws.layout.chainFile(F), "garbage\n"), /last line is not valid JSON/],
  ])("refuses to append when %s", async (_t, damage, message) => {
    const ws = await gateWorkspace();
    await buildChain(ws.layout, ws.clock, F, 2);
    damage(ws);
    await expect(buildChain(ws.layout, ws.clock, F, 1)).rejects.toMatchObject({ code: "evidence_chain_discontinuity", message: expect.stringMatching(message), hint: expect.stringMatching(/aop evidence verify/) });
  });

  it("an append reads only the chain's tail: damage further up is left for verify to report", async () => {
    const ws = await gateWorkspace();
    await buildChain(ws.layout, ws.clock, F, 3);
    const lines = chainLines(ws.layout, F);
    lines[0] = lines[0]!.replace('"sequence":0', '"sequence":0 ');
    writeChainLines(ws.layout, F, lines);
    await buildChain(ws.layout, ws.clock, F, 1);
    expect(await verifyFeatureChain(ws.layout, ws.clock, F)).toMatchObject({ valid: true, entry_count: 4 }); // whitespace is not content
    lines[1] = "{}";
    writeChainLines(ws.layout, F, [...lines, chainLines(ws.layout, F)[3]!]);
    await buildChain(ws.layout, ws.clock, F, 1);
    expect(await verifyFeatureChain(ws.layout, ws.clock, F)).toMatchObject({ valid: false, first_failure_sequence: 1 });
  });

  it("refuses to chain a file that does not exist", async () => {
    const ws = await gateWorkspace();
    expect(() => appendChainEntryLocked(ws.layout, F, ws.layout.gateEvidence(F, "full", 1), "2026-01-01T00:00:00.000Z")).toThrow(expect.objectContaining({ code: "evidence_not_found" }));
  });
});

describe("readJsonlTail", () => {
  const file = () => path.join(tempDir(), "c.jsonl");

  it.each([
    ["an empty file", "", { completeEnd: 0, lines: [] }],
    ["one line", "a\n", { completeEnd: 2, lines: ["a"] }],
    ["a torn tail", "a\nb\npart", { completeEnd: 4, lines: ["b"] }],
    ["only a torn line", "part", { completeEnd: 0, lines: [] }],
    ["CRLF", "a\r\nb\r\n", { completeEnd: 6, lines: ["b"] }],
  ])("%s", (_t, contents, expected) => {
    const f = file();
    fs.writeFileSync(f, contents);
    expect(readJsonlTail(f)).toEqual({ size: Buffer.byteLength(contents), ...expected });
  });

  it("finds a last line longer than its first read window", () => {
    const f = file();
    const long = "x".repeat(100_000);
    fs.writeFileSync(f, `first\n${long}\n${"y".repeat(70_000)}`);
    expect(readJsonlTail(f)).toMatchObject({ lines: [long], completeEnd: 6 + long.length + 1 });
  });

  it("returns the last N lines oldest first, fewer when the file has fewer", () => {
    const f = file();
    const lines = Array.from({ length: 3000 }, (_, i) => `line ${i} ${"z".repeat(i % 50)}`);
    fs.writeFileSync(f, lines.join("\n") + "\ntorn");
    expect(readJsonlTail(f, 2500)!.lines).toEqual(lines.slice(500));
    expect(readJsonlTail(f, 5000)!.lines).toEqual(lines);
  });

  it("is null for a missing file", () => {
    expect(readJsonlTail(file())).toBeNull();
  });
});

describe("readJsonlTailForAppend", () => {
  const file = () => path.join(tempDir(), "c.jsonl");
  afterEach(() => vi.restoreAllMocks());

  it("cuts a torn tail off, says how many bytes went, and returns the tail as it now is", () => {
    const f = file();
    fs.writeFileSync(f, "a\nb\npart");
    const cut: number[] = [];
    expect(readJsonlTailForAppend(f, 1, (n) => cut.push(n))).toEqual({ size: 4, completeEnd: 4, lines: ["b"] });
    expect(fs.readFileSync(f, "utf8")).toBe("a\nb\n");
    expect(cut).toEqual([4]);
  });

  it("leaves a whole file alone", () => {
    const f = file();
    fs.writeFileSync(f, "a\nb\n");
    const cut: number[] = [];
    expect(readJsonlTailForAppend(f, 1, (n) => cut.push(n))).toEqual({ size: 4, completeEnd: 4, lines: ["b"] });
    expect(cut).toEqual([]);
  });

  it("a cut the file system refuses throws its own code, not a bare system error", () => {
    const f = file();
    fs.writeFileSync(f, "a\npart");
    vi.spyOn(fs, "truncateSync").mockImplementation(() => {
      throw Object.assign(new Error("EPERM: operation not permitted"), { code: "EPERM" });
    });
    expect(() => readJsonlTailForAppend(f, 1)).toThrow(expect.objectContaining({ code: "permission_denied" }));
    expect(() => readJsonlTailForAppend(f, 1)).toThrow(AopError);
  });
});
