import fs from "node:fs";
import path from "node:path";
import { portableSchema } from "../../../src/adapters/mcp/portable-schema.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpClient, type McpToolClient } from "../../../src/app/clients/mcp.js";
import { loadCatalog, mcpToolName, readSchemaDocument } from "../../../src/catalog/catalog.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { fixedClock } from "../../../src/core/clock.js";
import { createRuntime } from "../../../src/app/create-runtime.js";
import type { Envelope } from "../../../src/core/errors.js";
import { tempDir, writeFile } from "../../helpers/tmp.js";
import { signingKeyFixture, type SigningKeyFixture } from "../../helpers/signing-key.js";
import { PARITY_SCRIPT } from "./parity-script.js";

const NOW = "2026-04-01T08:00:00.000Z";
let client: McpToolClient;

/**
 * Parity excludes ts and latency_ms of timeline lines (docs/kernel.md; ts is pinned by AOP_NOW here) and
 * the transport key, the one thing meant to differ (docs/replay.md, "Transport").
 */
/**
 * A search cursor names the next hit by its time, run, sequence and the byte offset of its line; the
 * offset moves with the digits of earlier lines' latencies, so the two transports' cursors are compared
 * without it (docs/replay.md, "Search").
 */
function withoutLineOffset(cursor: string): string {
  const key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
  return JSON.stringify(key.map((part) => (typeof part === "string" ? part.replace(/:\d+$/, ":<offset>") : part)));
}

function withoutTimings(envelope: Envelope): Envelope {
  if (!envelope.ok) return envelope;
  const data = envelope.data as { entries?: { latency_ms?: number; transport?: string }[]; next_cursor?: unknown };
  if (typeof data.next_cursor === "string") return { ok: true, data: { ...data, next_cursor: withoutLineOffset(data.next_cursor) } };
  if (!Array.isArray(data.entries)) return envelope;
  return { ok: true, data: { ...data, entries: data.entries.map(({ transport: _transport, ...e }) => ({ ...e, latency_ms: 0 })) } };
}
let mcpRoot: string;
let localRoot: string | undefined;
let key: SigningKeyFixture;

/** A workspace folder named alike in both runs: anchors name the workspace folder in their origin. */
function parityWorkspace(): string {
  const root = `${tempDir()}/parity-ws`;
  writeFile(root, ".git/HEAD", "ref: refs/heads/main\n");
  return root;
}

// Both workspaces get the same config: evidence integrity on, a gate that runs a real command, and the
// public key of the one signing key both transports sign with (AOP_SIGNING_KEY, set below).
function seedWorkspace(root: string): string {
  key.commitTo(root);
  writeFile(root, "agentic/orchestrator/policy.yaml", "innovation:\n  tamper_evident_evidence: true\nobservability:\n  evidence_integrity:\n    enabled: true\n");
  writeFile(root, "agentic/orchestrator/gates.yaml", `version: 1\ndefault_profile: p\nprofiles:\n  p:\n    modes:\n      fast:\n        - name: hello\n          cmd: [${JSON.stringify(process.execPath)}, -e, "console.log('gate ok')"]\n      broken:\n        - name: exits-3\n          cmd: [${JSON.stringify(process.execPath)}, -e, "process.exit(3)"]\n`);
  return root;
}

beforeAll(async () => {
  key = signingKeyFixture();
  process.env.AOP_SIGNING_KEY = key.file;
  mcpRoot = seedWorkspace(parityWorkspace());
  client = await mcpClient({ root: mcpRoot, env: { ...process.env, AOP_NOW: NOW, AOP_ACTOR: "orchestrator" }, stderr: "pipe" });
});

afterAll(async () => {
  delete process.env.AOP_SIGNING_KEY;
  await client?.close();
});

// The timeline comparison reads what the call sequence wrote, and every later call adds to the server's
// timeline: the tests run in order, even under --sequence.shuffle.
describe("MCP parity over a real stdio connection", { shuffle: false }, () => {
  it("tools/list advertises every catalog tool with the catalog schemas (no $id, no $schema, type arrays as anyOf) and hints", async () => {
    const listed = await client.rawListTools();
    const catalog = loadCatalog().tools;
    expect(listed.map((t) => t.name).sort()).toEqual(catalog.map((t) => mcpToolName(t.name)).sort());
    for (const entry of catalog) {
      const tool = listed.find((t) => t.name === mcpToolName(entry.name))!;
      // The catalog's documents, but for `$id` and `$schema`, with type arrays as anyOf (docs/mcp.md, "Schemas").
      const { $id: _inId, $schema: _inSchema, ...input } = readSchemaDocument(entry.input_schema_ref);
      const { $id: _outId, $schema: _outSchema, ...output } = readSchemaDocument(entry.output_schema_ref);
      expect(tool.inputSchema, entry.name).toEqual(portableSchema(input));
      expect(tool.outputSchema, entry.name).toEqual(portableSchema(output));
      expect(JSON.stringify([tool.inputSchema, tool.outputSchema]), entry.name).not.toMatch(/"type":\[/);
      expect(tool.annotations).toMatchObject({ readOnlyHint: !entry.mutating, destructiveHint: false });
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    }
  });

  it("the parity script covers every catalog tool", () => {
    const covered = new Set(PARITY_SCRIPT.map((s) => s.tool));
    for (const entry of loadCatalog().tools) expect(covered.has(entry.name), entry.name).toBe(true);
  });

  it("the same call sequence yields identical data/error payloads in-process and over MCP", async () => {
    // Built the way the CLI builds it (policy, timeline hook), so the timeline tool sees the same runs.
    localRoot = seedWorkspace(parityWorkspace());
    const runtime = await createRuntime({ layout: new WorkspaceLayout(localRoot), clock: fixedClock(NOW), identity: { actor: "orchestrator" }, warn: () => undefined });
    for (const [i, step] of PARITY_SCRIPT.entries()) {
      const local = withoutTimings((await runtime.callTool(step.tool, step.args)).envelope);
      const remote: Envelope = withoutTimings((await client.callTool(step.tool, step.args)).envelope);
      expect(remote, `step ${i}: ${step.tool} ${JSON.stringify(step.args)}`).toEqual(local);
    }
  });

  it("timeline lines are identical but for ts and latency_ms; the sidecar holds the transport `aop mcp` adds, for every line", () => {
    expect(localRoot).toBeDefined();
    const lines = (root: string) => {
      const layout = new WorkspaceLayout(root);
      return fs.readdirSync(layout.replayDir).filter((f) => f.endsWith(".timeline.jsonl")).sort().flatMap((f) =>
        fs.readFileSync(path.join(layout.replayDir, f), "utf8").trimEnd().split("\n").map((l) => {
          const { ts: _ts, latency_ms: _latency, ...rest } = JSON.parse(l) as Record<string, unknown>;
          return rest;
        }),
      );
    };
    const local = lines(localRoot!);
    const remote = lines(mcpRoot);
    expect(local.length).toBeGreaterThan(0);
    expect(remote).toEqual(local);
    const sidecar = (root: string) => {
      const layout = new WorkspaceLayout(root);
      return fs.readdirSync(layout.replayDir).filter((f) => f.endsWith(".ext.jsonl")).sort().flatMap((f) =>
        fs.readFileSync(path.join(layout.replayDir, f), "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>),
      );
    };
    expect(sidecar(localRoot!)).toEqual([]);
    const remoteExt = sidecar(mcpRoot);
    expect(remoteExt.map((e) => e.transport)).toEqual(remote.map(() => "mcp"));
    expect(remoteExt.map((e) => e.sequence)).toEqual(remote.map((e) => e.sequence));
  });

  it("a tool failure is an isError result: a summary line, then the envelope text (no structuredContent)", async () => {
    const bad = (await client.rawCall("feature_get", { feature_id: "../x" })) as { isError?: boolean; structuredContent?: unknown; content: { type: string; text: string }[] };
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toBeUndefined();
    expect(bad.content).toHaveLength(2);
    expect(bad.content[0]!.text).toMatch(/^Error invalid_argument: /);
    expect(() => JSON.parse(bad.content[0]!.text)).toThrow();
    expect(JSON.parse(bad.content[1]!.text)).toMatchObject({ ok: false, error: { code: "invalid_argument" } });
  });

  it("an unknown tool name is JSON-RPC error -32602 naming the tool, with aop's envelope as its data", async () => {
    const err = (await client.rawCall("totally_unknown", {}).then(
      () => null,
      (e: unknown) => e,
    )) as { code?: number; message?: string; data?: unknown } | null;
    expect(err?.code).toBe(-32602);
    expect(err?.message).toMatch(/Unknown tool: totally_unknown/);
    expect(err?.data).toMatchObject({ ok: false, error: { code: "unknown_tool", details: { tool_name: "totally_unknown" } } });
  });

  it("a success carries the data as structuredContent and the envelope as text", async () => {
    const raw = (await client.rawCall("feature_list", {})) as { isError?: boolean; structuredContent: unknown; content: { text: string }[] };
    expect(raw.isError).toBeFalsy();
    expect(JSON.parse(raw.content[0]!.text)).toEqual({ ok: true, data: raw.structuredContent });
  });
});
