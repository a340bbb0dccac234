import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WorkspaceLayout } from "../../src/store/layout.js";
import { bucketQuota, pruneLedgerBucket, pruneStepDue, PRUNE_STEP_MAX_ENTRIES } from "../../src/store/ledger-retention.js";
import { ledgerKey, recordPath } from "../../src/store/ledger-files.js";
import { tempWorkspace } from "../helpers/tmp.js";
import { opId, testRuntime } from "../helpers/runtime.js";

const DAY = 86_400_000;
const NOW = Date.now();

/** Fake record files in one bucket, named by a key that starts with the bucket, aged as given (days). */
function bucketWith(layout: WorkspaceLayout, bucket: string, ages: number[], extra: string[] = []): string[] {
  const dir = layout.ledgerBucket(bucket);
  fs.mkdirSync(dir, { recursive: true });
  const names = ages.map((age, i) => {
    const name = `${bucket}${String(i).padStart(62, "0")}.json`;
    fs.writeFileSync(path.join(dir, name), "{}");
    fs.utimesSync(path.join(dir, name), (NOW - age * DAY) / 1000, (NOW - age * DAY) / 1000);
    return name;
  });
  for (const name of extra) fs.writeFileSync(path.join(dir, name), "");
  return names;
}

const left = (layout: WorkspaceLayout, bucket: string) => fs.readdirSync(layout.ledgerBucket(bucket)).sort();

describe("ledger retention: one fan-out folder per step", () => {
  it("removes records older than max_age_days and keeps the rest", () => {
    const layout = new WorkspaceLayout(tempWorkspace());
    const names = bucketWith(layout, "ab", [40, 31, 29, 1, 0]);
    const outcome = pruneLedgerBucket(layout, "ab", { max_age_days: 30, max_records: 100_000 }, NOW);
    expect(outcome).toEqual({ scanned: 5, removed: 2 });
    expect(left(layout, "ab")).toEqual(names.slice(2).sort());
  });

  it("keeps at most ceil(max_records / 256) records per folder, dropping the oldest", () => {
    const layout = new WorkspaceLayout(tempWorkspace());
    const names = bucketWith(layout, "0f", [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(bucketQuota({ max_age_days: 30, max_records: 1024 })).toBe(4);
    pruneLedgerBucket(layout, "0f", { max_age_days: 30, max_records: 1024 }, NOW);
    expect(left(layout, "0f")).toEqual(names.slice(6).sort());
  });

  it("never removes the record just written, locks, or files that are not records", () => {
    const layout = new WorkspaceLayout(tempWorkspace());
    const names = bucketWith(layout, "11", [50, 50], ["x.json.lock", "notes.txt"]);
    pruneLedgerBucket(layout, "11", { max_age_days: 30, max_records: 256 }, NOW, names[0]!.slice(0, 64));
    expect(left(layout, "11")).toEqual([names[0]!, "notes.txt", "x.json.lock"].sort());
  });

  it("removes old intents (interrupted calls nobody retried) unless a call holds their lock", () => {
    const layout = new WorkspaceLayout(tempWorkspace());
    const dir = layout.ledgerBucket("22");
    fs.mkdirSync(dir, { recursive: true });
    const old = (NOW - 40 * DAY) / 1000;
    const [a, b] = ["22" + "a".repeat(62), "22" + "b".repeat(62)];
    for (const key of [a, b]) {
      fs.writeFileSync(path.join(dir, `${key}.intent.jsonl`), "{}\n");
      fs.utimesSync(path.join(dir, `${key}.intent.jsonl`), old, old);
    }
    fs.writeFileSync(path.join(dir, `${b}.json.lock`), "{}");
    pruneLedgerBucket(layout, "22", { max_age_days: 30, max_records: 256 }, NOW);
    expect(left(layout, "22")).toEqual([`${b}.intent.jsonl`, `${b}.json.lock`]);
  });

  it("bounds the work of a step", () => {
    expect(PRUNE_STEP_MAX_ENTRIES).toBeLessThanOrEqual(4096);
    const due = Array.from({ length: 4096 }, (_, i) => pruneStepDue(ledgerKey(`op-${i}`))).filter(Boolean).length;
    expect(due / 4096).toBeGreaterThan(1 / 32);
    expect(due / 4096).toBeLessThan(1 / 8);
  });

  it("a mutating call whose record is due prunes its own folder with the policy's limits", async () => {
    const root = tempWorkspace();
    fs.mkdirSync(path.join(root, "agentic", "orchestrator"), { recursive: true });
    fs.writeFileSync(path.join(root, "agentic", "orchestrator", "policy.yaml"), "idempotency:\n  retention:\n    max_age_days: 7\n");
    const { runtime, layout } = testRuntime({ layout: new WorkspaceLayout(root) });
    let id = "";
    for (let i = 0; !pruneStepDue(ledgerKey(id)); i++) id = opId(`prune-${i}`);
    const bucket = ledgerKey(id).slice(0, 2);
    const names = bucketWith(layout, bucket, [10, 3]);
    const r = await runtime.callTool("feature.init", { feature_id: "pruned", operation_id: id });
    expect(r.envelope.ok).toBe(true);
    expect(left(layout, bucket)).toEqual([names[1]!, path.basename(recordPath(layout, id))].sort());
  });
});
