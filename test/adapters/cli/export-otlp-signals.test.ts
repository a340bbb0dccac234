// Black-box: `aop export otlp --follow` stops promptly on SIGINT/SIGTERM while a backlog is being sent to
// a slow receiver, and the cursor stays right: a later export sends exactly what was not delivered.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_RUN, AGENT_SPANS, copyFixture, cursorFiles, exportJson, setUpExportTests, traceId, type ExportFixture } from "../../helpers/export-fixture.js";
import { startSlowFront } from "../../helpers/otlp-fronts.js";
import { normalizeTrace, settle, spansOf, type Receiver } from "../../helpers/otlp-receiver.js";
import { CLI_BIN } from "../../helpers/paths.js";

let receiver: Receiver;
let fixture: ExportFixture;

setUpExportTests((r, f) => {
  receiver = r;
  fixture = f;
});

const spanIdsOf = (body: Buffer) => spansOf(normalizeTrace(JSON.parse(body.toString("utf8")))).map((s) => s.spanId);

describe("aop export otlp --follow — signals", () => {
  it.each(["SIGINT", "SIGTERM"] as const)("%s stops a backlog to a slow receiver at once: the request in flight is given up, no batch starts after it; only delivered batches move the cursor", async (signal) => {
    const root = await copyFixture(fixture);
    const trace = traceId(root, AGENT_RUN);
    const before = receiver.spans(trace).length;
    // One entry per request; the first answered at once, each later one a minute late: the second is in
    // flight when the signal comes, and only giving it up ends the export before its answer.
    const front = await startSlowFront(receiver.base, 60_000, 1);
    try {
      const args = ["export", "otlp", "--run-id", AGENT_RUN, "--follow", "--endpoint", front.url, "--protocol", "http/json", "--batch-size", "1"];
      // A batch's time budget beyond the answer's delay: no timeout gives the request up for aop.
      const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: root, env: { ...process.env, NO_COLOR: "1", OTEL_EXPORTER_OTLP_TIMEOUT: "120000" } });
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      await settle(() => front.answered >= 1 && front.seen.length >= 2, 20_000);
      expect(front.seen.length, stderr).toBe(2);
      const signalled = Date.now();
      child.kill(signal);
      const code = await exited;
      // Waiting for the answer would take a minute (measured about 0.2 s; the rest is a loaded machine's margin).
      expect(Date.now() - signalled, stderr).toBeLessThan(30_000);
      expect(code, stderr).toBe(0);
      expect(stderr).not.toMatch(/error/);
      await settle(() => front.abandoned >= 1);
      expect({ answered: front.answered, abandoned: front.abandoned }).toEqual({ answered: 1, abandoned: 1 });
      const requestsAtStop = front.seen.length;
      expect(requestsAtStop).toBe(2);

      // Nothing new was started after the signal, and the cursor says what was delivered.
      await new Promise((r) => setTimeout(r, 300));
      expect(front.seen.length).toBe(requestsAtStop);
      const [cursorFile] = cursorFiles(root);
      const cursor = JSON.parse(fs.readFileSync(path.join(root, ".aop", "runtime", "export", cursorFile!), "utf8")) as { next_sequence: number; spans_sent: number };
      const delivered = front.seen.slice(0, 1).flatMap((r) => spanIdsOf(r.body));
      expect(cursor.next_sequence).toBeGreaterThanOrEqual(1);
      expect(cursor.spans_sent).toBe(delivered.length);

      // A later export to the same endpoint sends exactly the rest.
      front.delayMs = 0;
      const later = await exportJson<{ runs: { from_sequence: number; spans: number }[] }>(root, ["--run-id", AGENT_RUN, "--endpoint", front.url, "--protocol", "http/json", "--batch-size", "1"]);
      expect(later.code, later.stderr).toBe(0);
      expect(later.json.runs[0]).toMatchObject({ from_sequence: cursor.next_sequence, spans: AGENT_SPANS - delivered.length });
      const resent = front.seen.slice(requestsAtStop).flatMap((r) => spanIdsOf(r.body));
      expect(new Set([...delivered, ...resent]).size).toBe(AGENT_SPANS);
      expect(delivered.filter((id) => resent.includes(id))).toEqual([]);

      // The receiver has every span; a span twice only if its request was in flight at the signal
      // (it reached the receiver, the answer did not reach aop: at-least-once, same ids).
      await settle(() => new Set(receiver.spans(trace).slice(before).map((s) => s.spanId)).size >= AGENT_SPANS);
      const got = receiver.spans(trace).slice(before).map((s) => s.spanId);
      expect(new Set(got).size).toBe(AGENT_SPANS);
      const inFlight = new Set(front.seen.slice(1, requestsAtStop).flatMap((r) => spanIdsOf(r.body)));
      const twice = got.filter((id, i) => got.indexOf(id) !== i);
      for (const id of twice) expect(inFlight.has(id)).toBe(true);
    } finally {
      await front.close();
    }
  }, 120_000); // a failing run waits out the minute's delay and says so
});
