import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { gatherDoctor, parseDoctorReport } from "../../../src/domains/report/gather-doctor.js";
import { gatherLedger, type LedgerLookup } from "../../../src/domains/report/gather-ledger.js";
import { requireWorkspace } from "../../../src/domains/report/workspace-guard.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";
import { record } from "./report-fixtures.js";

const recorded = (op: string, envelope = '{"ok":true,"data":{}}'): LedgerLookup => ({
  status: "recorded",
  record: { operation_id: op, tool_name: "feature.init", request_hash: "sha256:aa", run_id: "r1", recorded_at: "2026-03-01T09:00:00.000Z", envelope_json: envelope },
});

describe("ledger envelopes", () => {
  it("looks up each mutating call's operation once, newest first, within the budget", () => {
    const calls = [0, 1, 2, 3].map((i) => record(i, { mutating: true, operation_id: `op-${i}`, idempotency_status: "new" }));
    // A replay of op-3, a read-only call, and an agent's own tool seen by a hook (no idempotency stage): no look-ups.
    calls.push(record(4, { mutating: true, operation_id: "op-3", idempotency_status: "replay" }), record(5, { operation_id: "read-only" }), record(6, { mutating: true, operation_id: "toolu_1" }));
    const asked: string[] = [];
    const { ledger, left_out } = gatherLedger([calls], (op) => (asked.push(op), op === "op-2" ? { status: "missing" } : recorded(op)), { maxLookups: 3, maxBytes: 1e6, maxEnvelopeBytes: 1e6 });
    expect(asked).toEqual(["op-3", "op-2", "op-1"]);
    expect(left_out).toBe(1);
    expect(ledger["op-2"]).toEqual({ status: "missing", operation_id: "op-2" });
    expect(ledger["op-3"]).toMatchObject({ status: "recorded", tool_name: "feature.init", envelope_json: '{"ok":true,"data":{}}', truncated: false });
  });

  it("cuts a large envelope and stops at the byte budget", () => {
    const calls = [0, 1, 2].map((i) => record(i, { mutating: true, operation_id: `op-${i}`, idempotency_status: "new" }));
    const big = "x".repeat(100);
    const { ledger, left_out } = gatherLedger([calls], (op) => recorded(op, big), { maxLookups: 10, maxBytes: 150, maxEnvelopeBytes: 80 });
    expect(ledger["op-2"]).toMatchObject({ envelope_json: "x".repeat(80), truncated: true });
    expect(Object.keys(ledger)).toEqual(["op-2", "op-1"]);
    expect(left_out).toBe(1);
  });
});

describe("the doctor's last report", () => {
  it("absent, unreadable, and findings worst first", () => {
    const layout = new WorkspaceLayout(tempWorkspace());
    expect(gatherDoctor(layout).status).toBe("absent");
    fs.mkdirSync(layout.doctorDir, { recursive: true });
    fs.writeFileSync(layout.doctorLastReport, "{oops");
    expect(gatherDoctor(layout)).toMatchObject({ status: "unreadable", problem: expect.stringMatching(/not valid JSON/) });
    const view = parseDoctorReport(JSON.stringify({ ok: false, generated_at: "2026-03-01T09:00:00.000Z", findings: [
      { id: "DRIFT_006_X", severity: "warning", message: "w", remediation: "r", refs: ["a"] },
      { id: "DRIFT_001_X", severity: "info", message: "i", remediation: "", refs: [] },
      { id: "DRIFT_008_X", severity: "critical", message: "c", remediation: "", refs: [] },
    ] }));
    expect(view.findings.map((f) => f.severity)).toEqual(["critical", "warning", "info"]);
    expect(view.summary).toEqual({ critical: 1, warning: 1, info: 1 });
  });

  it("a FIFO in place of the report is refused without blocking", () => {
    const layout = new WorkspaceLayout(tempWorkspace());
    fs.mkdirSync(layout.doctorDir, { recursive: true });
    execFileSync("mkfifo", [layout.doctorLastReport]);
    expect(gatherDoctor(layout)).toMatchObject({ status: "unreadable", problem: expect.stringMatching(/not a regular file/) });
  });
});

describe("the workspace", () => {
  it("is required, never created", () => {
    const dir = tempDir();
    expect(() => requireWorkspace(new WorkspaceLayout(dir))).toThrow(/no aop workspace/);
    expect(fs.readdirSync(dir)).toEqual([]);
    fs.mkdirSync(`${dir}/.checkpoints`);
    expect(() => requireWorkspace(new WorkspaceLayout(dir))).not.toThrow();
  });
});
