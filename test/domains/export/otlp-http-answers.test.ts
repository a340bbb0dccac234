// A receiver's answer is read up to a bound (DESIGN §23): an endless body neither hangs the export nor
// fills its memory, and a 2xx stays a delivery.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { resolveHttpTarget } from "../../../src/domains/export/export-target.js";
import { postOtlp, type PostResult } from "../../../src/domains/export/otlp-http.js";

/** Answers `status` with a body that never ends (1 MiB chunks until the client goes away). */
async function endless(status: number): Promise<{ url: string; written: () => number; close(): void }> {
  let written = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(status, { "content-type": "application/x-protobuf" });
      const chunk = Buffer.alloc(1024 * 1024, 0x41);
      const pump = () => {
        while (!res.destroyed && written < 4 * 1024 ** 3 && res.write(chunk)) written += chunk.length;
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    written: () => written,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const within = <T>(promise: Promise<T>, ms: number) => Promise.race([promise, new Promise<"timed out">((r) => setTimeout(() => r("timed out"), ms))]);

describe("answers are read up to a bound", () => {
  it("a 200 with an endless body is a delivery, read no further than 64 KiB", async () => {
    const front = await endless(200);
    try {
      const target = resolveHttpTarget({ endpoint: front.url }, { OTEL_EXPORTER_OTLP_TIMEOUT: "60000" }, null);
      const result = await within(postOtlp(target, new Uint8Array([1]), { userAgent: "test" }), 5_000);
      expect(result).toEqual<PostResult>({ attempts: 1, rejected: 0, rejectMessage: "" });
      expect(front.written()).toBeLessThan(256 * 1024 * 1024);
    } finally {
      front.close();
    }
  });

  it("a 400 with an endless body fails with the start of it", async () => {
    const front = await endless(400);
    try {
      const target = resolveHttpTarget({ endpoint: front.url }, {}, null);
      const error = await within(postOtlp(target, new Uint8Array([1]), { userAgent: "test" }).then(() => null, (err: unknown) => err), 5_000);
      expect((error as Error).message).toMatch(/answered 400 Bad Request: A{200}$/);
    } finally {
      front.close();
    }
  });
});
