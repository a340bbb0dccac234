// Black-box: trace and span ids include the workspace id (DESIGN §20). Two workspaces that record the same
// run id (`run:demo`) export two traces; one workspace exporting again sends the same ids; a copy of a
// workspace is another workspace. The built `aop export otlp` into a real OTLP receiver on loopback.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { exportJson, spanId, traceId, workspaceIdOf } from "../../helpers/export-fixture.js";
import { settle, startReceiver, type ReceivedSpan, type Receiver } from "../../helpers/otlp-receiver.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";

const RUN = "run:demo";
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

/** A workspace whose run `run:demo` holds two calls, as any workspace's demo would. */
function demoWorkspace(): string {
  const root = tempWorkspace();
  for (const args of [["feature", "init", "feat_demo"], ["feature", "list"]]) {
    const r = runCli([...args, "--run-id", RUN], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
  }
  return root;
}

interface Exported {
  runs: { run_id: string; trace_id: string; spans: number }[];
}

async function exportDemo(root: string): Promise<Exported["runs"][number]> {
  const r = await exportJson<Exported>(root, ["--run-id", RUN, "--endpoint", receiver.url]);
  expect(r.code, r.stderr).toBe(0);
  return r.json.runs[0]!;
}

const idsOf = (spans: ReceivedSpan[]) => spans.map((s) => `${s.spanId}<${s.parentSpanId ?? ""}`).sort();

describe("aop export otlp — ids per workspace", () => {
  it("two workspaces with the same run id export different traces; exporting again from one gives the same ids", async () => {
    const [a, b] = [demoWorkspace(), demoWorkspace()];
    const [ra, rb] = [await exportDemo(a), await exportDemo(b)];
    expect([ra.spans, rb.spans]).toEqual([3, 3]); // two calls and the root each
    expect(ra.trace_id).not.toBe(rb.trace_id);
    // As docs/otel.md derives them, from the id each workspace keeps in .aop/workspace.json.
    expect(workspaceIdOf(a)).not.toBe(workspaceIdOf(b));
    expect([ra.trace_id, rb.trace_id]).toEqual([traceId(a, RUN), traceId(b, RUN)]);
    await settle(() => receiver.spans(ra.trace_id).length >= 3 && receiver.spans(rb.trace_id).length >= 3);
    const [sa, sb] = [receiver.spans(ra.trace_id), receiver.spans(rb.trace_id)];
    expect([sa.length, sb.length]).toEqual([3, 3]);
    expect(sa.map((s) => s.spanId).filter((id) => sb.some((t) => t.spanId === id))).toEqual([]);
    expect(sa.filter((s) => s.name !== "invoke_workflow").map((s) => s.spanId).sort()).toEqual([spanId(a, RUN, 0), spanId(a, RUN, 1)].sort());

    // The same workspace, from a fresh cursor: the same trace, the same spans.
    fs.rmSync(path.join(a, ".aop", "runtime", "export"), { recursive: true });
    const again = await exportDemo(a);
    expect(again).toMatchObject({ trace_id: ra.trace_id, spans: 3 });
    await settle(() => receiver.spans(ra.trace_id).length >= 6);
    const twice = receiver.spans(ra.trace_id);
    expect(idsOf(twice.slice(3))).toEqual(idsOf(twice.slice(0, 3)));
  });

  it("a copied workspace gets an id and a trace of its own, and the cursor copied with it does not hold it back", async () => {
    const original = demoWorkspace();
    const first = await exportDemo(original);
    const copy = path.join(tempDir(), "copy");
    fs.cpSync(original, copy, { recursive: true });
    const fromCopy = await exportDemo(copy);
    expect(fromCopy.trace_id).not.toBe(first.trace_id);
    expect(fromCopy.spans).toBe(3); // the copied cursor belonged to the original's trace: everything is sent
    const identity = JSON.parse(fs.readFileSync(path.join(copy, ".aop", "workspace.json"), "utf8")) as { workspace_id: string; previous_id: string };
    expect(identity.previous_id).toBe(workspaceIdOf(original));
    expect(fromCopy.trace_id).toBe(traceId(copy, RUN));
    // The original is unchanged by its copy: same id, same trace, nothing left to send.
    expect(await exportDemo(original)).toMatchObject({ trace_id: first.trace_id, spans: 0 });
  });
});
