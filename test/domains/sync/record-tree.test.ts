// The pure parts of sync: cutting timelines and sidecars into segments, where a pulled tree's paths may
// land, and reading git's push answers.
import { describe, expect, it } from "vitest";
import { placeTreePath, SEGMENT_LINES, SegmentCutter, segmentName, SidecarCutter } from "../../../src/domains/sync/record-tree.js";
import { planOrigin } from "../../../src/domains/sync/pull.js";
import { packBytes, readPushOutcome } from "../../../src/domains/sync/push.js";

const line = (seq: number) => `{"ts":"t","sequence":${seq},"run_id":"r"}\n`;

function cut(text: string, chunk = 7) {
  const segments: { first: number; text: string; lines: number }[] = [];
  const cutter = new SegmentCutter((first, bytes, lines) => segments.push({ first, text: bytes.toString(), lines }));
  const buf = Buffer.from(text);
  for (let i = 0; i < buf.length; i += chunk) cutter.push(buf.subarray(i, i + chunk));
  cutter.end();
  return { segments, cutter };
}

describe("SegmentCutter", () => {
  it("cuts complete lines into segments of SEGMENT_LINES named by their first sequence, whatever the chunking", () => {
    const n = SEGMENT_LINES * 2 + 5;
    const text = Array.from({ length: n }, (_, i) => line(i)).join("");
    for (const chunk of [1 << 20, 13]) {
      const { segments, cutter } = cut(text, chunk);
      expect(segments.map((s) => [s.first, s.lines])).toEqual([[0, SEGMENT_LINES], [SEGMENT_LINES, SEGMENT_LINES], [2 * SEGMENT_LINES, 5]]);
      expect(segments.map((s) => s.text).join("")).toBe(text);
      expect(cutter.lines).toBe(n);
      expect(cutter.firsts).toEqual([0, SEGMENT_LINES, 2 * SEGMENT_LINES]);
    }
  });

  it("leaves a torn last line out and keeps names increasing when sequences do not", () => {
    const text = line(5) + line(6) + '{"sequence":7,"ru';
    const { segments } = cut(text);
    expect(segments).toEqual([{ first: 5, text: line(5) + line(6), lines: 2 }]);
    const odd = [...Array.from({ length: SEGMENT_LINES }, () => line(3)), "no sequence here\n"].join("");
    expect(cut(odd).segments.map((s) => s.first)).toEqual([3, SEGMENT_LINES]);
  });

  it("names segments with twelve digits", () => {
    expect(segmentName(4096, false)).toBe("seg-000000004096.jsonl");
    expect(segmentName(0, true)).toBe("seg-000000000000.ext.jsonl");
  });
});

describe("SidecarCutter", () => {
  it("puts each sidecar line in the segment of its sequence, in file order, so the joined segments are the file", () => {
    const lines = [`{"sequence":1,"a":1}\n`, `{"sequence":4097,"a":2}\n`, `{"sequence":5000,"a":3}\n`, `{"sequence":2,"late":true}\n`, "not json\n"];
    const out: [number, string][] = [];
    const cutter = new SidecarCutter([0, 4096, 8192], (first, bytes) => out.push([first, bytes.toString()]));
    cutter.push(Buffer.from(lines.join("")));
    cutter.end();
    expect(out).toEqual([[0, lines[0]], [4096, lines.slice(1).join("")]]);
    expect(out.map(([, t]) => t).join("")).toBe(lines.join(""));
  });
});

describe("placeTreePath", () => {
  it("maps the records layout onto a workspace-shaped folder", () => {
    expect(placeTreePath("timelines/run:1/seg-000000004096.ext.jsonl")).toEqual({ kind: "segment", run: "run:1", first: 4096, ext: true, local: ".aop/runtime/replay/run:1.ext.jsonl" });
    expect(placeTreePath("meta/r1.json")).toEqual({ kind: "file", local: ".aop/runtime/replay/r1.meta.json" });
    expect(placeTreePath("features/f/evidence/chain.jsonl")).toEqual({ kind: "file", local: ".aop/features/f/evidence/chain.jsonl" });
    expect(placeTreePath("ledger/ab/x.json")).toEqual({ kind: "file", local: ".aop/runtime/operation-ledger/ab/x.json" });
    expect(placeTreePath("checkpoints/b.checkpoint.json")).toEqual({ kind: "file", local: ".checkpoints/b.checkpoint.json" });
    expect(placeTreePath("doctor/last_report.json")).toEqual({ kind: "file", local: ".aop/runtime/doctor/last_report.json" });
    expect(placeTreePath("handoff.json")).toEqual({ kind: "file", local: ".aop/runtime/handoff.json" });
    expect(placeTreePath("workspace.json")).toEqual({ kind: "workspace" });
  });

  it.each([["../x"], ["features/../../etc"], ["features/.git/config"], ["keys/k.pub"], ["doctor/history/a.json"], ["timelines/r/seg-1.jsonl"], ["timelines/r/x/seg-000000000000.jsonl"], ["memory/a\nb"], ["features/a/b/c/d/e/f/g/h"], ["agentic"], [`timelines/${"r".repeat(129)}/seg-000000000000.jsonl`], [`meta/${"r".repeat(129)}.json`]])("refuses %j", (p) => {
    expect(placeTreePath(p).kind).toBe("refused");
  });
});

describe("planOrigin", () => {
  const blob = (path: string, size = 10, mode = "100644", type = "blob") => ({ mode, type, oid: "0".repeat(40), size, path });
  it("refuses links, submodules, executables-as-links, oversized blobs and two paths landing on one file", () => {
    expect(planOrigin([blob("memory/a", 10, "120000")])).toEqual({ refused: "'memory/a' is a symbolic link" });
    expect(planOrigin([blob("memory", 10, "160000", "commit")])).toEqual({ refused: "'memory' is a submodule" });
    expect(planOrigin([blob("memory/a", 64 * 1024 * 1024 + 1)])).toMatchObject({ refused: expect.stringMatching(/larger than/) });
    expect(planOrigin([blob("meta/r.json"), blob("features/../x")])).toMatchObject({ refused: expect.stringMatching(/not a plain name/) });
    const ok = planOrigin([blob("workspace.json"), blob("timelines/r/seg-000000000000.jsonl"), blob("meta/r.json")]);
    expect(ok).toMatchObject({ runs: new Set(["r"]) });
  });
});

describe("reading git push", () => {
  it("tells accepted, retry and refused apart, with the server's messages", () => {
    expect(readPushOutcome(0, "To r\n*\tabc:refs/aop/records/x\t[new reference]\nDone\n", "")).toEqual({ status: "ok" });
    expect(readPushOutcome(1, "To r\n!\tabc:refs/aop/records/x\t[rejected] (fetch first)\nDone\n", "")).toEqual({ status: "retry", reason: "rejected (fetch first)" });
    expect(readPushOutcome(1, "To r\n!\tabc:refs/aop/records/x\t[remote rejected] (failed to lock)\n", "")).toMatchObject({ status: "retry" });
    expect(readPushOutcome(1, "To r\n!\tabc:refs/aop/records/x\t[remote rejected] (pre-receive hook declined)\n", "remote: no custom refs\nremote: \n")).toEqual({
      status: "refused",
      reason: "remote rejected (pre-receive hook declined)",
      messages: ["no custom refs"],
    });
    expect(readPushOutcome(128, "", "fatal: could not read from remote repository")).toBeNull();
  });

  it("reads the pack size from git's progress", () => {
    expect(packBytes("Enumerating objects: 5, done.\rWriting objects:  40% (2/5)\rWriting objects: 100% (5/5), 4.21 KiB | 4.21 MiB/s, done.\n")).toBe(4311);
    expect(packBytes("Writing objects: 100% (3/3), 838 bytes | 838.00 KiB/s, done.\n")).toBe(838);
    expect(packBytes("nothing")).toBeNull();
  });
});
