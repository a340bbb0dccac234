import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { check } from "../../../../src/domains/doctor/checks/drift-009-idempotency-ledger.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { DRIFT_CASES, DriftFixture } from "../drift-fixtures.js";
import { intentPath, recordPath } from "../../../../src/store/ledger-files.js";
import { auditLedger, recordsToCheck } from "../../../../src/store/ledger-audit.js";

const DAY = 86_400_000;
const DEAD_PID = 2 ** 22 + 12345; // above the default pid_max: never a live process

function record(f: DriftFixture, operationId: string, ageDays = 0, text?: string): DriftFixture {
  const file = recordPath(f.layout, operationId);
  f.write(f.layout.relative(file), text ?? { operation_id: operationId, tool_name: "feature.init", request_hash: "sha256:" + "0".repeat(64), run_id: "r", recorded_at: "2026-06-01T12:00:00.000Z", envelope_json: '{"ok":true,"data":{}}' });
  const at = (Date.now() - ageDays * DAY) / 1000;
  fs.utimesSync(file, at, at);
  return f;
}

function intent(f: DriftFixture, operationId: string, effects: object[] = [], options: { lockPid?: number } = {}): DriftFixture {
  const head = { intent: { operation_id: operationId, tool_name: "feature.set_status", request_hash: "sha256:" + "1".repeat(64), run_id: "r", session_id: null, actor_type: "orchestrator", feature_id: "f1", started_at: "2026-06-01T11:00:00.000Z", pid: DEAD_PID, hostname: "h" } };
  f.write(f.layout.relative(intentPath(f.layout, operationId)), [head, ...effects.map((effect) => ({ effect }))].map((l) => JSON.stringify(l) + "\n").join(""));
  if (options.lockPid !== undefined) f.write(f.layout.relative(recordPath(f.layout, operationId)) + ".lock", { pid: options.lockPid, hostname: "h", acquired_at: "x" });
  return f;
}

const POLICY = "idempotency:\n  retention:\n    max_age_days: 30\n    max_records: 256\n";

const OK = "the idempotency ledger is readable and settled";

testCheck(check, {
  ...DRIFT_CASES,
  valid: [
    { name: "no ledger", workspace: (f) => f, ok: OK },
    { name: "settled records", workspace: (f) => record(record(f, "op-a-000001"), "op-b-000001"), ok: OK },
    { name: "a record with its leftover intent (killed between the two)", workspace: (f) => intent(record(f, "op-left-0001"), "op-left-0001"), ok: OK },
    { name: "an intent whose call is still running", workspace: (f) => intent(f, "op-live-0001", [], { lockPid: process.pid }), ok: OK },
    { name: "an intent whose first line never completed", workspace: (f) => f.write(f.layout.relative(intentPath(f.layout, "op-torn-0001")), '{"intent":{"oper'), ok: OK },
  ],
  invalid: [
    { name: "a corrupt record", workspace: (f) => record(f, "op-bad-00001", 0, '{"operation_id":'), findings: [{ message: /^\.aop\/runtime\/operation-ledger\/[0-9a-f]{2}\/[0-9a-f]{64}\.json is not valid JSON: calls with its operation id fail with file_corrupt$/ }] },
    { name: "a record without its envelope", workspace: (f) => record(f, "op-bad-00002", 0, '{"operation_id":"x","tool_name":"t","request_hash":"h"}'), findings: [{ message: /\.json has no envelope_json: calls with its operation id fail with file_corrupt/ }] },
    { name: "an intent with a damaged middle line", workspace: (f) => f.write(f.layout.relative(intentPath(f.layout, "op-bad-00003")), '{"intent":{"request_hash":"h"}}\n{oops\n{}\n'), findings: [{ message: /\.intent\.jsonl line 2 is not valid JSON/ }] },
    {
      name: "an interrupted call that changed nothing",
      workspace: (f) => intent(f, "op-int-00001", [{ kind: "write", path: `${f.layout.root}/.aop/features/f1/state.md`, before: null, after: "sha256:" + "2".repeat(64) }]),
      findings: [{ message: /^feature\.set_status \(operation_id op-int-00001, started 2026-06-01T11:00:00\.000Z by process \d+\) was interrupted before changing anything; its result was never recorded$/ }],
    },
    {
      name: "an interrupted call that changed a file",
      workspace: (f) => {
        f.state("f1");
        return intent(f, "op-int-00002", [{ kind: "write", path: `${f.layout.root}/.aop/features/f1/state.md`, before: null, after: "sha256:" + "3".repeat(64) }]);
      },
      findings: [{ message: /was interrupted after changing \.aop\/features\/f1\/state\.md; its result was never recorded$/ }],
    },
    {
      name: "records older than max_age_days (info)",
      workspace: (f) => record(record(f.write("agentic/orchestrator/policy.yaml", POLICY), "op-old-00001", 40), "op-new-00001", 1),
      findings: [{ severity: "info", message: /^1 ledger record is older than idempotency\.retention\.max_age_days \(30\) and will be pruned as calls are recorded$/ }],
    },
    {
      name: "more records than max_records (info)",
      workspace: (f) => {
        f.write("agentic/orchestrator/policy.yaml", POLICY);
        for (let i = 0; i < 257; i++) record(f, `op-many-${String(i).padStart(4, "0")}`);
        return f;
      },
      findings: [{ severity: "info", message: /^the ledger holds 257 records, over idempotency\.retention\.max_records \(256\); they are pruned a folder at a time as calls are recorded$/ }],
    },
  ],
});

describe("the ledger audit's content bound", () => {
  const rec = (file: string, mtimeMs: number, size: number) => ({ file, mtimeMs, size });
  const budget = (records: number, largeBytes: number) => ({ records, smallRecord: 100, largeBytes });
  const files = (list: { file: string }[]) => list.map((r) => r.file);

  it("takes the newest records first, up to the count", () => {
    const records = [rec("a", 1, 10), rec("b", 3, 10), rec("c", 2, 10)];
    expect(files(recordsToCheck(records, budget(2, 1_000)))).toEqual(["b", "c"]);
  });

  it("takes large records only within the byte bound, and the newest large one always", () => {
    const records = [rec("a", 1, 600), rec("b", 3, 600), rec("c", 2, 600)];
    expect(files(recordsToCheck(records, budget(10, 1_200)))).toEqual(["b", "c"]);
    expect(files(recordsToCheck(records, budget(10, 1_199)))).toEqual(["b"]);
    expect(files(recordsToCheck(records, budget(10, 1)))).toEqual(["b"]);
    expect(recordsToCheck([], budget(10, 1))).toEqual([]);
  });

  it("keeps checking small records past large ones the byte bound leaves out", () => {
    const records = [rec("big-new", 5, 900), rec("big-old", 4, 900), rec("small-1", 3, 50), rec("small-2", 2, 100), rec("small-3", 1, 50)];
    expect(files(recordsToCheck(records, budget(10, 1_000)))).toEqual(["big-new", "small-1", "small-2", "small-3"]);
    expect(files(recordsToCheck(records, budget(3, 1_000)))).toEqual(["big-new", "small-1", "small-2"]);
  });

  it("breaks ties by name, so two audits check the same records", () => {
    const records = [rec("z", 5, 1), rec("m", 5, 1), rec("a", 5, 1)];
    expect(files(recordsToCheck(records, budget(2, 100)))).toEqual(["a", "m"]);
  });

  it("reports a corrupt small record behind large ones past the byte bound, not a large one past it", () => {
    const f = new DriftFixture();
    const big = (pad: string) => JSON.stringify({ operation_id: "x", tool_name: "doctor.run", request_hash: "h", envelope_json: JSON.stringify({ ok: true, data: { pad } }) });
    record(f, "op-small-bad1", 4, '{"operation_id":');
    record(f, "op-large-bad1", 3, `${big("p".repeat(6_000))}garbage`);
    record(f, "op-large-good", 2, big("q".repeat(6_000)));
    record(f, "op-small-bad2", 1, '{"tool_name":');
    const audit = (largeBytes: number) => auditLedger(f.layout, { max_age_days: 30, max_records: 10_000 }, Date.now(), { records: 2_000, smallRecord: 4_096, largeBytes }).corrupt.map((c) => c.path);
    const rel = (op: string) => f.layout.relative(recordPath(f.layout, op));
    expect(audit(1_000_000)).toEqual(["op-large-bad1", "op-small-bad1", "op-small-bad2"].map(rel).sort());
    expect(audit(8_000)).toEqual(["op-small-bad1", "op-small-bad2"].map(rel).sort());
  });
});
