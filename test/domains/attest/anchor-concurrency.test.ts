// anchors.jsonl under concurrency: several processes appending and anchoring one feature, and an anchorer
// killed with SIGKILL again and again. Anchors stay in chain order and every one of them verifies.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import "../../helpers/workers-env.js";
import { startWorker, waitForOutput } from "../../helpers/processes.js";
import { checkAnchor } from "../../../src/domains/attest/anchor-check.js";
import { leafHash } from "../../../src/domains/attest/merkle-tree.js";
import { readCommittedKeys } from "../../../src/domains/attest/public-keys.js";
import { verifyEvidence } from "../../../src/domains/attest/verify-evidence.js";
import { chainLines, gateWorkspace, type GateWorkspace } from "../../helpers/gates.js";
import { signingKeyFixture } from "../../helpers/signing-key.js";

const F = "feat_a";

/** Every complete anchors line is a valid anchor of today's chain, in non-decreasing size. */
function checkAllAnchors(ws: GateWorkspace): number[] {
  const leaves = chainLines(ws.layout, F).map((l) => leafHash(Buffer.from(l)));
  const keys = [...readCommittedKeys(ws.layout).keys.values()];
  const text = fs.readFileSync(ws.layout.anchorsFile(F), "utf8");
  const complete = text.slice(0, text.lastIndexOf("\n") + 1).split("\n").filter(Boolean);
  const sizes = complete.map((line) => {
    const verdict = checkAnchor(JSON.parse(line).note, F, keys, leaves);
    expect(verdict, line).toMatchObject({ valid: true });
    return verdict.tree_size!;
  });
  expect([...sizes].sort((a, b) => a - b)).toEqual(sizes);
  return sizes;
}

describe("anchors under concurrency", () => {
  it("3 processes × 12 rounds of append-then-anchor: every anchor verifies, in chain order", async () => {
    const ws = await gateWorkspace();
    const key = signingKeyFixture();
    key.commitTo(ws.root);
    const workers = [0, 1, 2].map(() => startWorker("anchorer.mjs", [ws.root, F, "12"], { AOP_SIGNING_KEY: key.file }));
    for (const r of await Promise.all(workers.map((w) => w.done))) expect(r.code, r.stderr).toBe(0);
    const sizes = checkAllAnchors(ws);
    expect(sizes.at(-1)).toBe(36);
    expect(await verifyEvidence(ws.layout, ws.clock, F)).toMatchObject({ valid: true, entry_count: 36, anchors: [{ valid: true, tree_size: 36 }] });
  }, 120_000);

  it("an anchorer killed with SIGKILL leaves only whole anchors (a torn tail is ignored, then cut off)", async () => {
    const ws = await gateWorkspace();
    const key = signingKeyFixture();
    key.commitTo(ws.root);
    for (let round = 0; round < 3; round++) {
      const victim = startWorker("anchorer.mjs", [ws.root, F], { AOP_SIGNING_KEY: key.file });
      await waitForOutput(victim.child, "anchored", 60_000);
      await new Promise((r) => setTimeout(r, 20 + round * 35));
      victim.child.kill("SIGKILL");
      expect((await victim.done).signal).toBe("SIGKILL");
      checkAllAnchors(ws);
      const after = await verifyEvidence(ws.layout, ws.clock, F);
      // The chain may hold an uncounted entry or a torn line from the kill; anchors never fail because of it.
      expect(after.anchors.every((a) => a.valid), JSON.stringify(after.anchors)).toBe(true);
      const next = startWorker("anchorer.mjs", [ws.root, F, "1"], { AOP_SIGNING_KEY: key.file });
      expect((await next.done).code).toBe(0);
      checkAllAnchors(ws);
      expect(fs.readFileSync(ws.layout.anchorsFile(F), "utf8").endsWith("\n")).toBe(true);
    }
    expect(await verifyEvidence(ws.layout, ws.clock, F)).toMatchObject({ valid: true });
  }, 180_000);
});
