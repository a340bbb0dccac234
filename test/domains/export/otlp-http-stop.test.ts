// postOtlp stops when its signal fires: during a retry's pause, and with a request in flight.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { resolveHttpTarget } from "../../../src/domains/export/export-target.js";
import { postOtlp } from "../../../src/domains/export/otlp-http.js";
import { freePort } from "../../helpers/otlp-receiver.js";

const body = new Uint8Array([1, 2, 3]);

async function stoppedAfter(url: string, ms: number): Promise<{ error: unknown; tookMs: number }> {
  const target = resolveHttpTarget({ endpoint: url }, { OTEL_EXPORTER_OTLP_TIMEOUT: "60000" }, null);
  const stop = new AbortController();
  setTimeout(() => stop.abort(), ms);
  const started = Date.now();
  const error = await postOtlp(target, body, { userAgent: "test", signal: stop.signal }).then(() => null, (err: unknown) => err);
  return { error, tookMs: Date.now() - started };
}

describe("postOtlp and its signal", () => {
  it("a stop during the pause before a retry ends it at once", async () => {
    const { error, tookMs } = await stoppedAfter(`http://127.0.0.1:${await freePort()}/v1/traces`, 200);
    expect(error).toMatchObject({ code: "export_failed", details: { interrupted: true } });
    expect((error as Error).message).toMatch(/^export to http:\/\/127\.0\.0\.1:\d+\/v1\/traces was interrupted$/);
    expect(tookMs).toBeLessThan(700); // the first backoff alone is 800 ms or more
  });

  it("a stop aborts the request in flight", async () => {
    const server = http.createServer(() => undefined); // never answers
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const { port } = server.address() as { port: number };
      const { error, tookMs } = await stoppedAfter(`http://127.0.0.1:${port}/v1/traces`, 200);
      expect(error).toMatchObject({ code: "export_failed", details: { interrupted: true } });
      expect(tookMs).toBeLessThan(1_000);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
