// Black-box: `aop export otlp` against hostile or misconfigured endpoints (docs/hardening.md, "OTLP
// export"): redirects are failures and never carry anything elsewhere; URLs are shown without user info
// or query; header values are never printed and a value fetch cannot send is a configuration error;
// out-of-range OTEL_* numbers are refused.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { AGENT_RUN, AGENT_SPANS, copyFixture, cursorFiles, exportCli, KERNEL_RUN, setUpExportTests, traceId, type ExportFixture } from "../../helpers/export-fixture.js";
import { startEchoingError, startRecorder, startRedirector, type Front } from "../../helpers/otlp-fronts.js";
import { freePort, settle, startFlakyProxy, type Receiver } from "../../helpers/otlp-receiver.js";

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

describe("aop export otlp — redirects are not deliveries", () => {
  it.each([301, 302, 303, 307, 308])("a %i is an export failure naming only the Location's origin; the other origin gets nothing, the cursor stays", async (status) => {
    const root = await copyFixture(fixture);
    const elsewhere = await startRecorder();
    const front = await startRedirector(status, `http://127.0.0.1:${elsewhere.port}/v1/traces?key=LOCATION-SECRET-3c`);
    const env = { OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=HEADER-SECRET-5b", OTEL_EXPORTER_OTLP_TIMEOUT: "3000" };
    await closing([elsewhere], async () => {
      const r = await closing([front], () => exportCli(root, ["--run-id", AGENT_RUN, "--endpoint", front.url], env));
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toContain(`error export_failed: the OTLP endpoint ${front.url} answered ${status}`);
      expect(r.stderr).toContain(`redirect to http://127.0.0.1:${elsewhere.port} not followed`);
      expect(r.stdout + r.stderr).not.toMatch(/LOCATION-SECRET|HEADER-SECRET/);
      expect(front.seen).toHaveLength(1); // a redirect is not retried
      expect(elsewhere.seen).toEqual([]); // neither the spans nor the headers left for the other origin
      expect(cursorFiles(root)).toEqual([]);
      // The configured URL comes up as a real receiver (same port): everything is delivered.
      const good = await startFlakyProxy(receiver.base, new Set(), 503, front.port);
      await closing([good], async () => {
        const before = receiver.spans(traceId(root, AGENT_RUN)).length;
        const ok = await exportCli(root, ["--run-id", AGENT_RUN, "--endpoint", front.url], env);
        expect(ok.code, ok.stderr).toBe(0);
        expect(ok.stdout).toContain(`sent ${AGENT_SPANS} spans`);
        await settle(() => receiver.spans(traceId(root, AGENT_RUN)).length >= before + AGENT_SPANS);
        expect(receiver.spans(traceId(root, AGENT_RUN)).length - before).toBe(AGENT_SPANS);
      });
      expect(elsewhere.seen).toEqual([]);
    });
  });
});

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

describe("aop export otlp — header values are never printed", () => {
  const VALUE = "FIRST-LINE-7a\nSECOND-LINE-7a";
  let target: Front;
  const policy = (root: string) => {
    fs.mkdirSync(path.join(root, "agentic", "orchestrator"), { recursive: true });
    fs.writeFileSync(path.join(root, "agentic", "orchestrator", "policy.yaml"), `version: 1\nobservability:\n  export:\n    otlp:\n      enabled: true\n      endpoint: ${target.url}\n      protocol: http/json\n      headers_env: AOP_TEST_TOKEN_HEADERS\n`);
  };

  it.each<[string, string[], Record<string, string>, string]>([
    ["a --header value with a line feed", ["--header", `x-token=${VALUE}`], {}, "--header: header 'x-token'"],
    ["OTEL_EXPORTER_OTLP_HEADERS with a line feed", [], { OTEL_EXPORTER_OTLP_HEADERS: `x-token=${VALUE}` }, "OTEL_EXPORTER_OTLP_HEADERS: header 'x-token'"],
    ["OTEL_EXPORTER_OTLP_TRACES_HEADERS with an encoded NUL", [], { OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-token=FIRST-LINE-7a%00SECOND-LINE-7a" }, "OTEL_EXPORTER_OTLP_TRACES_HEADERS: header 'x-token'"],
    ["the policy's headers_env with a carriage return", [], { AOP_TEST_TOKEN_HEADERS: "x-token=FIRST-LINE-7a%0D%0ASECOND-LINE-7a" }, "AOP_TEST_TOKEN_HEADERS: header 'x-token'"],
  ])("%s is a configuration error naming the header, at once, sending nothing", async (_what, args, env, named) => {
    const root = await copyFixture(fixture);
    target = await startRecorder();
    await closing([target], async () => {
      const usesPolicy = "AOP_TEST_TOKEN_HEADERS" in env;
      if (usesPolicy) policy(root);
      for (const json of [[], ["--json"]]) {
        const started = Date.now();
        const r = await exportCli(root, ["--run-id", KERNEL_RUN, ...(usesPolicy ? [] : ["--endpoint", target.url]), ...args, ...json], env);
        expect(r.code, r.stdout + r.stderr).toBe(2);
        expect(Date.now() - started).toBeLessThan(8_000);
        expect(r.stdout + r.stderr).toContain("usage_error");
        expect(r.stdout + r.stderr).toContain(named);
        expect(r.stdout + r.stderr).toMatch(/line break, NUL or other control character/);
        expect(r.stdout + r.stderr).not.toMatch(/FIRST-LINE|SECOND-LINE|retrying/);
      }
      expect(target.seen).toEqual([]);
      expect(cursorFiles(root)).toEqual([]);
    });
  });
});

describe("aop export otlp — out-of-range configuration is refused", () => {
  it.each([
    ["OTEL_EXPORTER_OTLP_TIMEOUT", "5000000000"],
    ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "5000000000"],
    ["OTEL_EXPORTER_OTLP_TIMEOUT", "2500.5"],
    ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "0"],
  ])("%s=%s is refused at once, naming the variable and the range", async (name, value) => {
    const root = await copyFixture(fixture);
    const port = await freePort();
    // Synchronous, with a kill timer: a timeout taken as valid retries for years.
    const r = runCli(["export", "otlp", "--run-id", KERNEL_RUN, "--endpoint", `http://127.0.0.1:${port}/v1/traces`], { cwd: root, env: { [name]: value }, timeoutMs: 15_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`error usage_error: ${name} must be a positive number of milliseconds: a whole number from 1 to 600000 (got '${value}')`);
    expect(cursorFiles(root)).toEqual([]);
  });
});
