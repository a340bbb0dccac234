// Several processes appending to one feature's chain, and an appender killed with SIGKILL mid-burst.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import "../../helpers/workers-env.js";
import { runWorkers, startWorker, waitForOutput } from "../../helpers/processes.js";
import { verifyFeatureChain } from "../../../src/domains/evidence/evidence-verify.js";
import type { ChainEntry } from "../../../src/domains/evidence/chain-hash.js";
import { chainLines, gateWorkspace, gatesYaml, INTEGRITY_POLICY_YAML } from "../../helpers/gates.js";
import { readState } from "../../../src/domains/features/feature-store.js";
import { bySuite } from "../../helpers/soak.js";

const F = "feat_a";
/** Gate runs each of 4 processes makes: 25 in the soak run (test/helpers/soak.ts). */
const RUNS = bySuite(10, 25);

describe("chain under concurrency", () => {
  it(`4 processes × ${RUNS} gate runs on one feature → ${4 * RUNS} entries, sequences 0..${4 * RUNS - 1}, a valid chain`, async () => {
    const ws = await gateWorkspace({ gates: gatesYaml({ fast: [{ name: "ok", cmd: ["true"] }] }), policyYaml: INTEGRITY_POLICY_YAML });
    const results = await runWorkers("gate-runs.mjs", [0, 1, 2, 3].map(() => [ws.root, F, "fast", String(RUNS)]));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const reported = results.flatMap((r) => (JSON.parse(r.stdout) as { sequences: number[] }).sequences);
    expect(reported.sort((a, b) => a - b)).toEqual(Array.from({ length: 4 * RUNS }, (_, i) => i));
    const entries = chainLines(ws.layout, F).map((l) => JSON.parse(l) as ChainEntry);
    expect(entries.map((e) => e.sequence)).toEqual(Array.from({ length: 4 * RUNS }, (_, i) => i));
    expect(new Set(entries.map((e) => e.artifact_rel_path)).size).toBe(4 * RUNS);
    expect(await verifyFeatureChain(ws.layout, ws.clock, F)).toMatchObject({ valid: true, entry_count: 4 * RUNS });
    // The state names the evidence latest-fast.json copies.
    const state = (await readState(ws.layout, F))!.state;
    expect(fs.readFileSync(ws.layout.latestEvidence(F, "fast"), "utf8")).toBe(fs.readFileSync(`${ws.root}/${state.gates.fast!.evidence}`, "utf8"));
    expect(fs.existsSync(ws.layout.lockFor(ws.layout.chainFile(F)))).toBe(false);
  }, 180_000);

  it("verified without its lock (optimistic) while two processes append, the chain is valid every time", async () => {
    const ws = await gateWorkspace();
    const appenders = [startWorker("chain-appender.mjs", [ws.root, F, "60"]), startWorker("chain-appender.mjs", [ws.root, F, "60"])];
    await Promise.all(appenders.map((a) => waitForOutput(a.child, "appended", 60_000)));
    let verified = 0;
    let running = true;
    void Promise.all(appenders.map((a) => a.done)).then(() => (running = false));
    while (running) {
      const r = await verifyFeatureChain(ws.layout, ws.clock, F, { recordResult: false, optimistic: true });
      expect(r, JSON.stringify(r)).toMatchObject({ valid: true });
      verified++;
      await new Promise((resolve) => setImmediate(resolve)); // an unlocked verification never waits: let the exits in
    }
    for (const a of appenders) expect((await a.done).code).toBe(0);
    expect(verified).toBeGreaterThan(0);
    expect(await verifyFeatureChain(ws.layout, ws.clock, F, { optimistic: true })).toMatchObject({ valid: true, entry_count: 120 });
  }, 180_000);

  it("an appender killed with SIGKILL mid-burst leaves a valid or clearly failing chain; the next appender continues without reusing a sequence", async () => {
    const ws = await gateWorkspace();
    const acceptable = new Set([null, "evidence_chain_discontinuity", "evidence_chain_hash_mismatch"]);
    for (let round = 0; round < 3; round++) {
      const victim = startWorker("chain-appender.mjs", [ws.root, F]);
      await waitForOutput(victim.child, `appended ${round * 40 + 15}`, 60_000);
      victim.child.kill("SIGKILL");
      const killed = await victim.done;
      expect(killed.signal).toBe("SIGKILL");
      const afterCrash = await verifyFeatureChain(ws.layout, ws.clock, F);
      // Valid, or failing closed with a code that names what the interrupted append left behind.
      expect(acceptable.has(afterCrash.failure_code), JSON.stringify(afterCrash)).toBe(true);
      if (!afterCrash.valid) expect(afterCrash.failure_reason).toMatch(/interrupted append|not counted|not a byte copy/);
      const before = chainLines(ws.layout, F).length;
      const next = await runWorkers("chain-appender.mjs", [[ws.root, F, String(round * 40 + 40 - before)]]);
      expect(next[0]!.code, next[0]!.stderr).toBe(0);
      const sequences = chainLines(ws.layout, F).map((l) => (JSON.parse(l) as ChainEntry).sequence);
      expect(sequences).toEqual(Array.from({ length: sequences.length }, (_, i) => i));
      expect(sequences.length).toBe(round * 40 + 40);
      expect(await verifyFeatureChain(ws.layout, ws.clock, F)).toMatchObject({ valid: true, entry_count: round * 40 + 40 });
    }
  }, 180_000);
});
