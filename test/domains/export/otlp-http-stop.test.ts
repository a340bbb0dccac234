// postOtlp stops when its signal fires: during a retry's pause, and with a request in flight.
import { describe, expect, it } from "vitest";
import { resolveHttpTarget } from "../../../src/domains/export/export-target.js";
import { postOtlp, type PostOptions } from "../../../src/domains/export/otlp-http.js";
import { startFront } from "../../helpers/otlp-fronts.js";

const body = new Uint8Array([1, 2, 3]);

/** Posts with a stop that `arm` fires when it chooses; the time is counted from the stop. */
async function stopped(url: string, arm: (stop: () => void) => Partial<PostOptions>): Promise<{ error: unknown; afterStopMs: number }> {
  const target = resolveHttpTarget({ endpoint: url }, { OTEL_EXPORTER_OTLP_TIMEOUT: "60000" }, null);
  const controller = new AbortController();
  let stoppedAt = Number.NaN;
  const stop = () => {
    stoppedAt = Date.now();
    controller.abort();
  };
  const error = await postOtlp(target, body, { userAgent: "test", signal: controller.signal, ...arm(stop) }).then(() => null, (err: unknown) => err);
  return { error, afterStopMs: Date.now() - stoppedAt };
}

// Each wait the stop cuts short is half a minute or more, so a loaded machine's scheduling cannot pass
// for waiting it out: the figures are from the stop, not from the start.
describe("postOtlp and its signal", () => {
  it("a stop during the pause before a retry ends it at once", async () => {
    const busy = await startFront((_request, res) => {
      res.writeHead(503, { "retry-after": "30" });
      res.end();
    });
    try {
      const { error, afterStopMs } = await stopped(busy.url, (stop) => ({ onRetry: () => setTimeout(stop, 50) }));
      expect(error).toMatchObject({ code: "export_failed", details: { interrupted: true } });
      expect((error as Error).message).toMatch(/^export to http:\/\/127\.0\.0\.1:\d+\/v1\/traces was interrupted$/);
      expect(busy.seen.length).toBe(1);
      expect(afterStopMs).toBeLessThan(10_000); // the receiver asked for a pause of 30 s
    } finally {
      await busy.close();
    }
  });

  it("a stop aborts the request in flight", async () => {
    const silent = await startFront(() => undefined); // never answers
    try {
      const { error, afterStopMs } = await stopped(silent.url, (stop) => (setTimeout(stop, 200), {}));
      expect(error).toMatchObject({ code: "export_failed", details: { interrupted: true } });
      expect(afterStopMs).toBeLessThan(10_000); // the batch's budget is a minute
    } finally {
      await silent.close();
    }
  });
});
