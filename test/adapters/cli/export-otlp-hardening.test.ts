// Black-box: `aop export otlp` against hostile or misconfigured endpoints (docs/hardening.md, "OTLP
// export"): redirects are failures and never carry anything elsewhere; URLs are shown without user info
// or query; header values are never printed and a value fetch cannot send is a configuration error;
// out-of-range OTEL_* numbers are refused.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { copyFixture, cursorFiles, exportCli, KERNEL_RUN, setUpExportTests, type ExportFixture } from "../../helpers/export-fixture.js";
import { startEchoingError } from "../../helpers/otlp-fronts.js";
import { freePort, startFlakyProxy, type Receiver } from "../../helpers/otlp-receiver.js";

let receiver: Receiver;
let fixture: ExportFixture;

setUpExportTests((r, f) => {
  receiver = r;
  fixture = f;
});

async function closing<T>(fronts: { close(): Promise<void> }[], body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } finally {
    for (const front of fronts) await front.close();
  }
}

describe("aop export otlp — URLs never leak secrets", () => {
  const PASSWORD = "hunter2pw";
  const TOKEN = "SECRET-TOKEN-91";
  const secretUrl = (port: number) => `http://user:${PASSWORD}@127.0.0.1:${port}/v1/traces?token=${TOKEN}#frag-SECRET`;
  const expectNoSecret = (text: string) => {
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain("frag-SECRET");
  };

  it("an unreachable endpoint with user:password@ and ?token= fails without showing either (human and --json)", async () => {
    const root = await copyFixture(fixture);
    const port = await freePort();
    for (const json of [[], ["--json"]]) {
      const r = await exportCli(root, ["--run-id", KERNEL_RUN, "--endpoint", secretUrl(port), ...json], { OTEL_EXPORTER_OTLP_TIMEOUT: "1200" });
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toContain(`the OTLP endpoint http://127.0.0.1:${port}/v1/traces (credentials and query hidden) could not be reached: `);
      expectNoSecret(r.stdout + r.stderr);
    }
    expect(cursorFiles(root)).toEqual([]);
  });

  it.each([503, 404])("an endpoint answering %i with the request's URL in its body: no secret in messages, retries, dry run or results", async (status) => {
    const root = await copyFixture(fixture);
    const front = await startEchoingError(status);
    await closing([front], async () => {
      const url = secretUrl(front.port);
      for (const json of [[], ["--json"]]) {
        const r = await exportCli(root, ["--run-id", KERNEL_RUN, "--endpoint", url, ...json], { OTEL_EXPORTER_OTLP_TIMEOUT: "1500" });
        expect(r.code).toBe(1);
        expect(r.stdout + r.stderr).toContain(`the OTLP endpoint http://127.0.0.1:${front.port}/v1/traces (credentials and query hidden)`);
        expect(r.stdout + r.stderr).toContain("cannot POST /v1/traces?<hidden>");
        expectNoSecret(r.stdout + r.stderr);
      }
      // The URL's user info went as Basic credentials, to this endpoint only.
      expect(front.seen.length).toBeGreaterThan(0);
      expect(front.seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`user:${PASSWORD}`).toString("base64")}`);
      for (const json of [[], ["--json"]]) {
        const dry = await exportCli(root, ["--run-id", KERNEL_RUN, "--endpoint", url, "--dry-run", ...json]);
        expect(dry.code, dry.stderr).toBe(0);
        expectNoSecret(dry.stdout + dry.stderr);
      }
    });
    const proxy = await startFlakyProxy(receiver.base, new Set());
    const proxyPort = Number(new URL(proxy.url).port);
    await closing([proxy], async () => {
      const sent = await exportCli(root, ["--run-id", KERNEL_RUN, "--endpoint", secretUrl(proxyPort)]);
      expect(sent.code, sent.stderr).toBe(0);
      expect(sent.stdout).toContain(`→ http://127.0.0.1:${proxyPort}/v1/traces (credentials and query hidden)`);
      expectNoSecret(sent.stdout + sent.stderr);
      const stored = cursorFiles(root).map((f) => fs.readFileSync(path.join(root, ".aop", "runtime", "export", f), "utf8")).join("");
      expectNoSecret(stored);
    });
  });
});
