// Black-box: `aop export otlp` modes (--dry-run, --follow, concurrent exports), configuration from the
// OTEL_EXPORTER_OTLP_* variables and the policy, and refusals — against a real OTLP receiver on loopback.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCliAsync } from "../../helpers/cli.js";
import { AGENT_RUN, AGENT_SPANS, copyFixture, setUpExportTests, cursorFiles, exportCli, exportJson, hookEvent, KERNEL_RUN, spanId, traceId, type ExportFixture } from "../../helpers/export-fixture.js";
import { normalizeTrace, settle, spansOf, startFlakyProxy, type Receiver } from "../../helpers/otlp-receiver.js";
import { tempDir } from "../../helpers/tmp.js";

let receiver: Receiver;
let fixture: ExportFixture;

setUpExportTests((r, f) => {
  receiver = r;
  fixture = f;
});

describe("aop export otlp — modes, configuration and refusals", () => {
  it("--dry-run shows what would be sent and sends nothing, moves no cursor", async () => {
    const root = await copyFixture(fixture);
    const before = receiver.requests.length;
    const human = await exportCli(root, ["--run-id", AGENT_RUN, "--endpoint", receiver.url, "--dry-run"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(`dry run: → ${receiver.url} (http/protobuf)`);
    expect(human.stdout).toContain(`would send ${AGENT_SPANS} spans`);
    expect(human.stdout).toMatch(/^ {2}invoke_agent claude-code {2}[0-9a-f]{16} /m);
    expect(human.stdout).toMatch(/^ {4}invoke_agent Explore .*\n {6}SubagentStart .*\n {6}execute_tool Grep /m);
    expect(human.stdout).toMatch(/^ {6}gate_step tests {2}[0-9a-f]{16} \d+ms {2}ERROR exit code 3$/m);
    expect(human.stdout).toContain("(dry run: nothing sent, cursors unchanged)");
    const json = await exportJson<{ dry_run: boolean; requests: { resourceSpans: unknown[] }[]; spans: number }>(root, ["--run-id", AGENT_RUN, "--endpoint", receiver.url, "--dry-run"]);
    expect(json.json).toMatchObject({ dry_run: true, spans: AGENT_SPANS });
    expect(spansOf(normalizeTrace(json.json.requests[0]))).toHaveLength(AGENT_SPANS);
    await settle();
    expect(receiver.requests.length).toBe(before);
    expect(cursorFiles(root)).toEqual([]);
  });

  it("follows a live run: new entries are exported as they are written, until Ctrl-C", async () => {
    const root = await copyFixture(fixture);
    const { spawn } = await import("node:child_process");
    const { CLI_BIN } = await import("../../helpers/paths.js");
    const child = spawn(process.execPath, [CLI_BIN, "export", "otlp", "--all", "--follow", "--endpoint", receiver.url, "--protocol", "http/json"], { cwd: root, env: { ...process.env, NO_COLOR: "1" } });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    try {
      await settle(() => stdout.includes(KERNEL_RUN) && stdout.includes(AGENT_RUN), 15_000);
      expect(stdout).toContain(`sent ${AGENT_SPANS} spans`);
      const before = receiver.spans(traceId(root, AGENT_RUN)).length;
      hookEvent(root, "PostToolUse", { tool_name: "Write", tool_input: { file_path: "live.ts" }, tool_use_id: "toolu_live", duration_ms: 3 });
      await settle(() => receiver.spans(traceId(root, AGENT_RUN)).length > before, 15_000);
      const live = receiver.spans(traceId(root, AGENT_RUN)).slice(before);
      expect(live.map((s) => [s.name, s.spanId])).toEqual([["execute_tool Write", spanId(root, AGENT_RUN, 12)]]);
      await settle(() => stdout.includes("sent 1 span (1 entry seq 12–12)"), 5_000);
      expect(stdout).toContain(`${AGENT_RUN}  trace ${traceId(root, AGENT_RUN)}  sent 1 span (1 entry seq 12–12) in 1 request`);
    } finally {
      child.kill("SIGINT");
    }
    expect(await exited).toBe(0);
  });

  it("two exports of one run at once deliver each span once (the cursor's lock)", async () => {
    const root = await copyFixture(fixture);
    const before = receiver.spans(traceId(root, AGENT_RUN)).length;
    const [a, b] = await Promise.all([
      exportCli(root, ["--run-id", AGENT_RUN, "--endpoint", receiver.url, "--batch-size", "2"]),
      exportCli(root, ["--run-id", AGENT_RUN, "--endpoint", receiver.url, "--batch-size", "2"]),
    ]);
    expect([a.code, b.code]).toEqual([0, 0]);
    await settle(() => receiver.spans(traceId(root, AGENT_RUN)).length >= before + AGENT_SPANS);
    await settle();
    const got = receiver.spans(traceId(root, AGENT_RUN)).slice(before);
    expect(got).toHaveLength(AGENT_SPANS);
    expect(new Set(got.map((s) => s.spanId)).size).toBe(AGENT_SPANS);
  });

  it("takes the endpoint, headers and protocol from OTEL_EXPORTER_OTLP_*; header values reach the receiver and nothing else", async () => {
    const root = await copyFixture(fixture);
    const secret = "s3cr3t-token-7d2e";
    const before = receiver.requests.length;
    const r = await exportCli(root, ["--run-id", KERNEL_RUN, "--header", "x-extra=from-flag"], {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.base,
      OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer%20${secret},x-team=aop`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`→ ${receiver.url} (http/json)`);
    await settle(() => receiver.requests.length > before);
    const request = receiver.requests[before]!;
    expect(request.contentType).toBe("application/json");
    expect(request.headers).toMatchObject({ authorization: `Bearer ${secret}`, "x-team": "aop", "x-extra": "from-flag" });
    expect(String(request.headers["user-agent"])).toMatch(/^aop\/\d+\.\d+\.\d+/);
    const stored = cursorFiles(root).map((f) => fs.readFileSync(path.join(root, ".aop", "runtime", "export", f), "utf8")).join("");
    for (const text of [r.stdout, r.stderr, stored]) expect(text).not.toContain(secret);
  });

  /** A copy of the fixture whose policy sends to the receiver, with `change` applied to the policy's text. */
  async function withPolicy(change: (yaml: string) => string = (y) => y): Promise<string> {
    const root = await copyFixture(fixture);
    const yaml = `version: 1\nobservability:\n  export:\n    otlp:\n      enabled: true\n      endpoint: ${receiver.url}\n      protocol: http/json\n      headers_env: AOP_TEST_OTLP_HEADERS\n`;
    fs.mkdirSync(path.join(root, "agentic", "orchestrator"), { recursive: true });
    fs.writeFileSync(path.join(root, "agentic", "orchestrator", "policy.yaml"), change(yaml));
    return root;
  }
  const HEADERS = { AOP_TEST_OTLP_HEADERS: "x-langfuse=pk-lf-1" };

  it("uses the policy's endpoint and the headers in the variable headers_env names; never sends those headers elsewhere", async () => {
    const root = await withPolicy();
    const config = await runCliAsync(["config", "check"], { cwd: root });
    expect(config.code, config.stdout + config.stderr).toBe(0);
    const before = receiver.requests.length;
    const r = await exportCli(root, ["--run-id", KERNEL_RUN], HEADERS);
    expect(r.code, r.stderr).toBe(0);
    await settle(() => receiver.requests.length > before);
    expect(receiver.requests[before]).toMatchObject({ contentType: "application/json", headers: { "x-langfuse": "pk-lf-1" } });
    // A flag endpoint overrides the policy's, and the policy's headers stay with the policy's endpoint.
    const proxy = await startFlakyProxy(receiver.base, new Set());
    try {
      const elsewhere = await exportCli(await withPolicy(), ["--run-id", KERNEL_RUN, "--endpoint", proxy.url], HEADERS);
      expect(elsewhere.code, elsewhere.stderr).toBe(0);
      expect(proxy.answered).toEqual([200]);
      await settle(() => receiver.requests.length > before + 1);
      expect(receiver.requests.at(-1)!.headers).not.toHaveProperty("x-langfuse");
    } finally {
      await proxy.close();
    }
    const missing = await exportCli(root, ["--run-id", KERNEL_RUN], { AOP_TEST_OTLP_HEADERS: undefined });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("error usage_error: policy observability.export.otlp.headers_env names AOP_TEST_OTLP_HEADERS, which is not set");
  });

  it("ignores the policy's section when it is not enabled, and refuses to export with a broken one", async () => {
    const disabled = await exportCli(await withPolicy((y) => y.replace("enabled: true", "enabled: false")), ["--run-id", KERNEL_RUN], HEADERS);
    expect(disabled.code).toBe(2);
    expect(disabled.stderr).toContain("error usage_error: no OTLP endpoint");
    const refused = await exportCli(await withPolicy((y) => y.replace("protocol: http/json", "protocol: grpc")), ["--run-id", KERNEL_RUN], HEADERS);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("error config_invalid: agentic/orchestrator/policy.yaml: observability.export.otlp.protocol must be http/json or http/protobuf (got 'grpc')");
  });

  it.each([
    [["--run-id", "run:ghost", "--endpoint", "http://127.0.0.1:9"], 1, "error replay_run_not_found: no timeline for run 'run:ghost'"],
    [["--run-id", "../../etc", "--endpoint", "http://127.0.0.1:9"], 1, "error invalid_argument: run_id"],
    [["--run-id", KERNEL_RUN, "--endpoint", "http://127.0.0.1:9", "--header", "secret-without-equals"], 2, "error usage_error: --header must be NAME=VALUE with a valid header name (got text without '=')"],
    [["--run-id", KERNEL_RUN, "--endpoint", "http://127.0.0.1:9", "--header", "bad name=x"], 2, "error usage_error: --header must be NAME=VALUE"],
    [["--run-id", KERNEL_RUN, "--endpoint", "ftp://example.com"], 2, "error usage_error: --endpoint must be an http:// or https:// URL"],
    [["--run-id", KERNEL_RUN, "--endpoint", "http://127.0.0.1:9", "--protocol", "grpc"], 2, "error usage_error: --protocol: grpc is not supported"],
    [["--run-id", KERNEL_RUN], 2, "error usage_error: no OTLP endpoint"],
    [["--endpoint", "http://127.0.0.1:9"], 2, "error usage_error: which runs?"],
    [["--all", "--run-id", KERNEL_RUN, "--endpoint", "http://127.0.0.1:9"], 2, "error usage_error: give either --run-id"],
    [["--run-id", KERNEL_RUN, "--out", "x.jsonl", "--endpoint", "http://127.0.0.1:9"], 2, "error usage_error: --out writes a file"],
    [["--all", "--since", "yesterday", "--endpoint", "http://127.0.0.1:9"], 2, "error usage_error: --since must be an ISO 8601 UTC time"],
    [["--run-id", KERNEL_RUN, "--dry-run", "--follow", "--endpoint", "http://127.0.0.1:9"], 2, "error usage_error: --dry-run shows one export"],
  ])("refuses %j (exit %i) with a clear error, no stack trace, no cursor", async (args, code, message) => {
    const root = await copyFixture(fixture);
    const r = await exportCli(root, args, { OTEL_EXPORTER_OTLP_ENDPOINT: undefined, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: undefined });
    expect(r.code).toBe(code);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(cursorFiles(root)).toEqual([]);
  });

  it("answers a receiver's 400 with its message and moves nothing", async () => {
    const root = await copyFixture(fixture);
    const proxy = await startFlakyProxy(receiver.base, new Set([1, 2, 3]), 400);
    try {
      const r = await exportCli(root, ["--run-id", KERNEL_RUN, "--endpoint", proxy.url]);
      expect(r.code).toBe(1);
      expect(proxy.answered).toEqual([400]); // not retried
      expect(r.stderr).toContain(`error export_failed: the OTLP endpoint ${proxy.url} answered 400 Bad Request: unavailable`);
      expect(cursorFiles(root)).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it("never writes through a symbolic link out of the workspace", async () => {
    const root = await copyFixture(fixture);
    const outside = tempDir();
    fs.symlinkSync(outside, path.join(root, ".aop", "runtime", "export"));
    const before = receiver.requests.length;
    const r = await exportCli(root, ["--run-id", KERNEL_RUN, "--endpoint", receiver.url]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("error path_outside_workspace: .aop/runtime/export/");
    expect(fs.readdirSync(outside)).toEqual([]);
    await settle();
    expect(receiver.requests.length).toBe(before);
  });

  it("never creates a workspace: an empty folder has no runs to export", async () => {
    const empty = tempDir();
    const r = await exportCli(empty, ["--root", empty, "--all", "--endpoint", receiver.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("no runs to export");
    expect(fs.readdirSync(empty)).toEqual([]);
  });
});
