import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runGate } from "../../../src/domains/gates/gate-service.js";
import { readState } from "../../../src/domains/features/feature-store.js";
import { validateAgainst } from "../../../src/catalog/load-validator.js";
import { gateWorkspace, gatesYaml, nodeStep, policyWith, type GateWorkspace } from "../../helpers/gates.js";
import { writeFile } from "../../helpers/tmp.js";

const FAST = gatesYaml({ fast: [nodeStep("hello", "console.log('hi')")] });

function runFast(ws: GateWorkspace, integrity: Parameters<typeof policyWith>[0] = false, input: Record<string, string> = {}) {
  return runGate(ws.layout, ws.clock, policyWith(integrity), { feature_id: "feat_a", mode: "fast", ...input });
}

describe("gates.run service", () => {
  it("writes gate-<mode>-<epoch_ms>.json in the documented shape (docs/evidence.md), a byte-identical latest copy, and the feature state", async () => {
    const ws = await gateWorkspace({ gates: FAST });
    const report = await runFast(ws);
    expect(await validateAgainst("output/gates.run", report)).toEqual([]);
    const epoch = Date.parse("2026-03-01T10:00:00.000Z");
    expect(report.evidence_path).toBe(`.aop/features/feat_a/evidence/gate-fast-${epoch}.json`);
    const bytes = fs.readFileSync(path.join(ws.root, report.evidence_path));
    const evidence = JSON.parse(bytes.toString("utf8"));
    expect(Object.keys(evidence)).toEqual(["feature_id", "mode", "profile", "overall", "started_at", "finished_at", "step_results"]);
    expect(evidence).toMatchObject({ feature_id: "feat_a", mode: "fast", profile: "default", overall: "pass", finished_at: "2026-03-01T10:00:00.000Z" });
    expect(Object.keys(evidence.step_results[0])).toEqual(["name", "cmd", "exit_code", "timed_out", "attempts", "skipped", "skip_reason", "started_at", "finished_at", "log_path", "log_sha256"]);
    expect(fs.readFileSync(ws.layout.latestEvidence("feat_a", "fast")).equals(bytes)).toBe(true);
    const state = (await readState(ws.layout, "feat_a"))!.state;
    expect(state.gates.fast).toEqual({ result: "pass", evidence: report.evidence_path, at: evidence.finished_at });
    expect(report.chain).toBeNull();
  });

  it("records a failing gate as overall fail in evidence and state (a failing gate is not an error)", async () => {
    const ws = await gateWorkspace({ gates: gatesYaml({ fast: [nodeStep("boom", "process.exit(2)")] }) });
    const report = await runFast(ws);
    expect(report.overall).toBe("fail");
    expect((await readState(ws.layout, "feat_a"))!.state.gates.fast!.result).toBe("fail");
  });

  it("two runs finishing in the same millisecond get distinct files; the first is never rewritten", async () => {
    const ws = await gateWorkspace({ gates: FAST });
    const first = await runFast(ws);
    const firstBytes = fs.readFileSync(path.join(ws.root, first.evidence_path));
    const second = await runFast(ws); // the fixed clock has not moved
    expect(second.evidence_path).not.toBe(first.evidence_path);
    const epoch = Date.parse("2026-03-01T10:00:00.000Z");
    expect(second.evidence_path).toMatch(new RegExp(`gate-fast-${epoch + 1}\\.json$`));
    expect(second.finished_at).toBe(new Date(epoch + 1).toISOString());
    expect(fs.readFileSync(path.join(ws.root, first.evidence_path)).equals(firstBytes)).toBe(true);
    // Logs of the second run moved to the next free millisecond too.
    expect(second.step_results[0]!.log_path).not.toBe(first.step_results[0]!.log_path);
    expect(fs.readFileSync(ws.layout.latestEvidence("feat_a", "fast"), "utf8")).toBe(fs.readFileSync(path.join(ws.root, second.evidence_path), "utf8"));
  });

  it.each([
    ["both toggles off", { tamper: false, enabled: false }],
    ["only innovation.tamper_evident_evidence", { tamper: true, enabled: false }],
    ["only observability.evidence_integrity.enabled", { tamper: false, enabled: true }],
  ])("chains nothing with %s", async (_t, toggles) => {
    const ws = await gateWorkspace({ gates: FAST });
    const report = await runFast(ws, toggles);
    expect(report.chain).toBeNull();
    expect(fs.existsSync(ws.layout.chainFile("feat_a"))).toBe(false);
    expect(fs.existsSync(ws.layout.manifestFile("feat_a"))).toBe(false);
  });

  it("chains every run when both toggles are on", async () => {
    const ws = await gateWorkspace({ gates: FAST });
    const a = await runFast(ws, true);
    ws.clock.advance(10);
    const b = await runFast(ws, true);
    expect([a.chain?.sequence, b.chain?.sequence]).toEqual([0, 1]);
    const manifest = JSON.parse(fs.readFileSync(ws.layout.manifestFile("feat_a"), "utf8"));
    expect(manifest).toEqual({ entry_count: 2, head_hash: b.chain!.chain_hash, last_verified_at: null, last_verified_result: null });
  });

  describe("bad input", () => {
    it.each([
      ["an unknown feature", { feature_id: "nope" }, "feature_not_found"],
      ["a traversal feature id", { feature_id: "../../etc" }, "invalid_argument"],
      ["a traversal mode", { mode: "../x" }, "invalid_argument"],
      ["a traversal profile", { profile: "a/b" }, "invalid_argument"],
      ["an unknown mode", { mode: "slow" }, "gate_mode_not_found"],
      ["an unknown profile", { profile: "ci" }, "gate_profile_not_found"],
    ])("%s is refused with its code", async (_t, input, code) => {
      const ws = await gateWorkspace({ gates: FAST });
      await expect(runFast(ws, false, input)).rejects.toMatchObject({ code });
      expect(fs.existsSync(ws.layout.evidenceDir("feat_a"))).toBe(false);
    });

    it("a missing gates.yaml is config_invalid with a hint to create one", async () => {
      const ws = await gateWorkspace();
      await expect(runFast(ws)).rejects.toMatchObject({ code: "config_invalid", message: expect.stringMatching(/gates\.yaml: does not exist/), hint: expect.stringMatching(/aop init/) });
    });

    it("an unparseable gates.yaml is config_invalid naming the line", async () => {
      const ws = await gateWorkspace();
      writeFile(ws.root, "agentic/orchestrator/gates.yaml", "version: 1\nprofiles: [\n  - : :\n");
      await expect(runFast(ws)).rejects.toMatchObject({ code: "config_invalid", message: expect.stringMatching(/line \d+/) });
    });

    it("a shell string instead of argv is config_invalid", async () => {
      const ws = await gateWorkspace();
      writeFile(ws.root, "agentic/orchestrator/gates.yaml", "version: 1\nprofiles:\n  default:\n    modes:\n      fast:\n        - name: t\n          cmd: npm test && rm -rf /\n");
      await expect(runFast(ws)).rejects.toMatchObject({ code: "config_invalid", message: expect.stringMatching(/cmd must be an array/) });
    });
  });
});
