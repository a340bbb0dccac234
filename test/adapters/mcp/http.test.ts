// `aop mcp --http` (docs/mcp.md): the same server over Streamable HTTP, driven by the official SDK clients
// in every protocol generation aop serves (2025-06-18 and 2025-11-25 handshakes, the 2026-07-28 stateless
// revision), its security checks (Host, Origin, bearer token off loopback, body bound), its start-up
// errors, progress on long calls, a cancelled gate that records only operation_cancelled, and SIGTERM.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as Sdk1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as Sdk1HttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { loadCatalog, mcpToolName } from "../../../src/catalog/catalog.js";
import { sha256Hex } from "../../../src/core/hash.js";
import { processIsRunning } from "../../../src/domains/gates/process-group.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { buildChain, gateWorkspace, gatesYaml, hangingStep, INTEGRITY_POLICY_YAML, nodeStep, startedStepPid, type GateWorkspace } from "../../helpers/gates.js";
import { startHttpServer, type HttpServer } from "../../helpers/mcp-http.js";
import { allJoinedEntries } from "../../helpers/timeline.js";
import { waitFor } from "../../helpers/wait.js";

const INIT = (version: string) => ({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** Every run's entries, each line joined with its sidecar extras (`transport` lives there); none before the first. */
function timeline(root: string): Record<string, unknown>[] {
  if (!fs.existsSync(new WorkspaceLayout(root).replayDir)) return [];
  return allJoinedEntries(root).map((e) => e.entry);
}

/** The result of a JSON or SSE answer to one POST. */
async function answer(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  if ((res.headers.get("content-type") ?? "").includes("text/event-stream")) {
    const data = text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
    return data.find((m) => "result" in m || "error" in m)!;
  }
  return JSON.parse(text) as Record<string, unknown>;
}

/** One POST over a raw socket (any Host, any size): the status line's code. The server may answer and close before the body is all sent. */
function rawPost(port: number, headers: Record<string, string>, body: string, target = "/mcp"): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const head = { host: `127.0.0.1:${port}`, "content-type": "application/json", accept: "application/json, text/event-stream", "content-length": String(Buffer.byteLength(body)), connection: "close", ...headers };
    let out = "";
    socket.on("data", (d: Buffer) => (out += d.toString()));
    socket.on("close", () => (out ? resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(out)?.[1])) : reject(new Error("no answer"))));
    socket.on("error", () => undefined); // EPIPE/ECONNRESET once the server answered early
    socket.write(`POST ${target} HTTP/1.1\r\n${Object.entries(head).map(([k, v]) => `${k}: ${v}`).join("\r\n")}\r\n\r\n`);
    // An oversize body is refused from its Content-Length, before it is read: wait for that answer.
    if (Buffer.byteLength(body) > 4 * 1024 * 1024) socket.once("data", () => socket.end());
    else socket.end(body);
  });
}

let ws: GateWorkspace;
let server: HttpServer;
const pidFile = () => path.join(ws.root, "step.pid");

beforeAll(async () => {
  ws = await gateWorkspace({ policyYaml: INTEGRITY_POLICY_YAML, gates: "" });
  fs.writeFileSync(path.join(ws.root, "agentic", "orchestrator", "gates.yaml"), gatesYaml({ fast: [nodeStep("one", ""), nodeStep("two", "")], slow: [hangingStep("hang", pidFile())] }));
  server = await startHttpServer(ws.root);
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe("aop mcp --http serves every generation with the SDK clients", () => {
  it("prints its loopback URL on stderr", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it("SDK 2.x client, 2026-07-28 (server/discover, per-request _meta): tools, resources, prompts and a call recorded as mcp-http", async () => {
    const client = new Client({ name: "http-modern", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(loadCatalog().tools.map((t) => mcpToolName(t.name)).sort());
      expect((await client.listResources()).resources.map((r) => r.uri)).toContain("aop://orientation");
      expect((await client.listPrompts()).prompts.map((p) => p.name).sort()).toEqual(["handoff", "resume"]);
      const r = await client.callTool({ name: "feature_get", arguments: { feature_id: "feat_a" } });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ feature: { feature_id: "feat_a" } });
    } finally {
      await client.close();
    }
    expect(timeline(ws.root).filter((e) => e.tool_name === "feature.get")).toContainEqual(expect.objectContaining({ result: "ok", transport: "mcp-http" }));
  });

  it("SDK 2.x client, 2025-11-25 handshake (a session)", async () => {
    const client = new Client({ name: "http-legacy", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    await client.connect(transport);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect((await client.listTools()).tools.length).toBe(loadCatalog().tools.length);
      const bad = await client.callTool({ name: "feature_get", arguments: { feature_id: "feat_nope" } });
      expect(bad.isError).toBe(true);
      expect((bad.content[0] as { text: string }).text).toMatch(/^Error feature_not_found: /);
    } finally {
      await client.close();
    }
  });

  it("SDK 1.x client (validates structuredContent against the output schemas)", async () => {
    const client = new Sdk1Client({ name: "http-sdk1", version: "1.0.0" });
    await client.connect(new Sdk1HttpTransport(new URL(server.url)));
    try {
      await client.listTools();
      const r = await client.callTool({ name: "feature_list", arguments: {} });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toHaveProperty("features");
    } finally {
      await client.close();
    }
  });

  it("a 2025-06-18 initialize is answered in that version", async () => {
    const res = await fetch(server.url, { method: "POST", headers: POST_HEADERS, body: JSON.stringify(INIT("2025-06-18")) });
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeTruthy();
    expect(await answer(res)).toMatchObject({ result: { protocolVersion: "2025-06-18", serverInfo: { name: "aop-continuity" } } });
  });
});

describe("aop mcp --http sessions (2025 generations)", () => {
  it("a session answers its requests until DELETE ends it; an unknown session id is 404", async () => {
    const init = await fetch(server.url, { method: "POST", headers: POST_HEADERS, body: JSON.stringify(INIT("2025-11-25")) });
    const sid = init.headers.get("mcp-session-id")!;
    await answer(init);
    const headers = { ...POST_HEADERS, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" };
    await fetch(server.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
    const ping = await fetch(server.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }) });
    expect(await answer(ping)).toMatchObject({ id: 2, result: {} });
    expect((await fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" } })).status).toBe(200);
    const after = await fetch(server.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }) });
    expect(after.status).toBe(404);
    expect(await after.json()).toMatchObject({ error: { message: expect.stringMatching(/Session not found/) } });
  });
});

describe("aop mcp --http checks every request", () => {
  it("refuses a foreign Host and a foreign Origin (DNS rebinding) with 403", async () => {
    const port = Number(new URL(server.url).port);
    const body = JSON.stringify(INIT("2025-11-25"));
    expect(await rawPost(port, {}, body)).toBe(200);
    expect(await rawPost(port, { host: `evil.example:${port}` }, body)).toBe(403);
    expect(await rawPost(port, { origin: "http://evil.example" }, body)).toBe(403);
    expect(await rawPost(port, { origin: `http://localhost:${port}` }, body)).toBe(200);
  });

  it("answers a body over 4 MiB with 413 and another path with 404", async () => {
    const port = Number(new URL(server.url).port);
    expect(await rawPost(port, {}, JSON.stringify({ ...INIT("2025-11-25"), pad: "x".repeat(4 * 1024 * 1024 + 1) }))).toBe(413);
    expect(await rawPost(port, {}, JSON.stringify(INIT("2025-11-25")), "/other")).toBe(404);
  });

  it("off loopback: refuses to start without a token; with one, requests need it (401 without)", async () => {
    await expect(startHttpServer(ws.root, "0.0.0.0:0")).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/invalid_argument: binding MCP to 0\.0\.0\.0 \(not loopback\) needs a bearer token/) });
    const token = "s3cret-token-for-the-test";
    const open = await startHttpServer(ws.root, "0.0.0.0:0", [], { AOP_MCP_TOKEN: token });
    try {
      const url = open.url.replace("0.0.0.0", "127.0.0.1");
      expect((await fetch(url, { method: "POST", headers: POST_HEADERS, body: JSON.stringify(INIT("2025-11-25")) })).status).toBe(401);
      expect((await fetch(url, { method: "POST", headers: { ...POST_HEADERS, authorization: "Bearer wrong" }, body: JSON.stringify(INIT("2025-11-25")) })).status).toBe(401);
      const ok = await fetch(url, { method: "POST", headers: { ...POST_HEADERS, authorization: `Bearer ${token}` }, body: JSON.stringify(INIT("2025-11-25")) });
      expect(ok.status).toBe(200);
      expect(open.stderr()).not.toContain(token);
    } finally {
      await open.stop();
    }
  });

  it("a port in use and a bad address are clear errors", async () => {
    const port = new URL(server.url).port;
    await expect(startHttpServer(ws.root, `127.0.0.1:${port}`)).rejects.toMatchObject({ stderr: expect.stringMatching(/port is in use/) });
    await expect(startHttpServer(ws.root, "not a port")).rejects.toMatchObject({ stderr: expect.stringMatching(/--http takes \[HOST:\]PORT/) });
  });
});

describe("long calls over HTTP", () => {
  it("gates_run with a progressToken sends progress notifications", async () => {
    const client = new Client({ name: "http-progress", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const seen: { progress: number; message?: string }[] = [];
    try {
      const r = await client.callTool({ name: "gates_run", arguments: { feature_id: "feat_a", mode: "fast", operation_id: "op-http-progress-1" } }, { onprogress: (p) => void seen.push(p) });
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    } finally {
      await client.close();
    }
    expect(seen.map((p) => p.message)).toEqual(expect.arrayContaining([expect.stringMatching(/gate step one started/), expect.stringMatching(/gate step two finished/)]));
    const counts = seen.map((p) => p.progress);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });

  it("doctor_run and evidence_verify_chain with a progressToken send progress notifications", async () => {
    const { createFeature } = await import("../../../src/domains/features/feature-store.js");
    await createFeature(ws.layout, ws.clock, { feature_id: "feat_long" });
    await buildChain(ws.layout, ws.clock, "feat_long", 260);
    const client = new Client({ name: "http-progress-2", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const doctor: { progress: number; total?: number; message?: string }[] = [];
    const chain: { progress: number; total?: number; message?: string }[] = [];
    try {
      const d = await client.callTool({ name: "doctor_run", arguments: { operation_id: "op-http-doctor-1" } }, { onprogress: (p) => void doctor.push(p) });
      expect(d.isError, JSON.stringify(d.content).slice(0, 500)).toBeFalsy();
      const r = await client.callTool({ name: "evidence_verify_chain", arguments: { feature_id: "feat_long" } }, { onprogress: (p) => void chain.push(p) });
      expect(r.isError, JSON.stringify(r.content).slice(0, 500)).toBeFalsy();
    } finally {
      await client.close();
    }
    expect(doctor.length).toBeGreaterThan(5);
    expect(doctor.at(-1)).toMatchObject({ progress: doctor.at(-1)!.total, message: expect.stringMatching(/^doctor: /) });
    expect(chain).toContainEqual(expect.objectContaining({ progress: 250, total: 260, message: "chain: 250 entries verified" }));
  });

  it.each([
    ["2025-11-25 (notifications/cancelled in the session)", "op-http-cancel-1", undefined],
    ["2026-07-28 (the client closes the request)", "op-http-cancel-2", "2026-07-28"],
  ] as const)("a cancelled gates_run, %s, kills the step and records only operation_cancelled", async (_how, opId, pin) => {
    fs.rmSync(pidFile(), { force: true });
    const client = new Client({ name: "http-cancel", version: "1.0.0" }, pin ? { versionNegotiation: { mode: { pin } } } : {});
    // What the client could not send (a cancellation it failed to POST) shows in the failure message.
    const clientErrors: string[] = [];
    client.onerror = (err) => void clientErrors.push(err.message);
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const abort = new AbortController();
    const call = client.callTool({ name: "gates_run", arguments: { feature_id: "feat_a", mode: "slow", operation_id: opId } }, { signal: abort.signal }).catch((e: unknown) => e);
    const stepPid = await startedStepPid(pidFile());
    abort.abort("the user pressed Esc");
    await call;
    const killed = await waitFor(() => !processIsRunning(stepPid), 5_000);
    expect(killed, `the step is killed (client errors: ${clientErrors.join("; ") || "none"}; the server's stderr: ${server.stderr().slice(-2000)})`).toBe(true);
    await client.close();
    // Its entry is written when the handler settles, just after the kill; its extras (`transport`) go to
    // the sidecar just after its line, so a read between the two sees the line alone: wait for both.
    let entries: Record<string, unknown>[] = [];
    await waitFor(() => {
      entries = timeline(ws.root).filter((e) => e.operation_id === opId);
      return entries.length > 0 && entries.every((e) => "transport" in e);
    }, 5_000);
    expect(entries).toEqual([expect.objectContaining({ tool_name: "gates.run", result: "error", error_code: "operation_cancelled", transport: "mcp-http" })]);
    expect(fs.existsSync(ws.layout.ledgerRecord(sha256Hex(opId))), "no ledger record").toBe(false);
    const chain = path.join(ws.layout.evidenceDir("feat_a"), "chain.jsonl");
    const chainText = fs.existsSync(chain) ? fs.readFileSync(chain, "utf8") : "";
    expect(chainText).not.toContain('"slow"');
    const evidence = fs.existsSync(ws.layout.evidenceDir("feat_a")) ? fs.readdirSync(ws.layout.evidenceDir("feat_a")) : [];
    expect(evidence.filter((f) => f.includes("slow")), "no evidence file for the cancelled mode").toEqual([]);
  });

  it("SIGTERM stops the server gracefully (exit 143)", async () => {
    const other = await startHttpServer(ws.root);
    expect(await other.stop("SIGTERM")).toMatchObject({ code: 143 });
  });
});
