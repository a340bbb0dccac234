// What validating clients do with aop's tools (docs/mcp.md, "Schemas" and "Errors"): every schema served
// by tools/list compiles under ajv strict in ONE Ajv instance (Gemini CLI keeps one for every tool and
// compiles on every call), none carries `$id`; and every kind of tool error reaches a client that checks
// results the way Gemini CLI 0.61 does — the SDK 1.x client behind a transport that, like Gemini's
// McpComplianceTransport, turns a JSON first text into structuredContent when there is none.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import AjvModule from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { CLI_BIN } from "../../helpers/paths.js";
import { runCli } from "../../helpers/cli.js";
import { tempWorkspace, writeFile } from "../../helpers/tmp.js";

const Ajv = AjvModule.default;
const Ajv2020 = Ajv2020Module.default;

type ListedTool = { name: string; inputSchema: Record<string, unknown>; outputSchema?: Record<string, unknown> };
type Result = { isError?: boolean; content: { type: string; text?: string }[]; structuredContent?: unknown };

/** Gemini CLI's rule (packages/core/src/tools/mcp-compliance-transport.ts): no structuredContent + a JSON first text → that JSON becomes structuredContent. */
class GeminiLikeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  constructor(private readonly inner: Transport) {
    inner.onmessage = (m) => this.onmessage?.(this.fix(m));
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
  }
  private fix(message: JSONRPCMessage): JSONRPCMessage {
    const result = (message as { result?: Result }).result;
    const first = result?.content?.[0];
    if (result && !result.structuredContent && first?.type === "text" && typeof first.text === "string") {
      try {
        result.structuredContent = JSON.parse(first.text);
      } catch {
        // not JSON: left alone, as Gemini leaves it
      }
    }
    return message;
  }
  start = () => this.inner.start();
  send = (m: JSONRPCMessage) => this.inner.send(m);
  close = () => this.inner.close();
}

let root: string;
let client: { listTools(): Promise<{ tools: ListedTool[] }>; callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<Result>; close(): Promise<void> };

beforeAll(async () => {
  root = tempWorkspace();
  writeFile(root, "agentic/orchestrator/gates.yaml", `version: 1\ndefault_profile: p\nprofiles:\n  p:\n    modes:\n      broken:\n        - name: exits-3\n          cmd: [${JSON.stringify(process.execPath)}, -e, "process.exit(3)"]\n`);
  expect(runCli(["feature", "init", "feat_a", "--title", "Alpha", "--operation-id", "op-schemas-01"], { cwd: root }).code).toBe(0);
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === "string" && !e[0].startsWith("AOP_")));
  const c = new Client({ name: "gemini-like", version: "1.0.0" });
  await c.connect(new GeminiLikeTransport(new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, "mcp", "--root", root], cwd: root, env, stderr: "pipe" })));
  client = c as unknown as typeof client;
}, 60_000);

afterAll(async () => {
  await client?.close();
});

describe("served schemas", () => {
  it("have no $id anywhere, and all compile under ajv strict in one Ajv instance (draft-07 and 2020-12), twice", async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(20);
    expect(JSON.stringify(tools)).not.toContain('"$id"');
    for (const ajv of [new Ajv({ strict: true }), new Ajv2020({ strict: true })]) {
      // Twice: Gemini compiles each tool's schema again on every call, into the same instance.
      for (let round = 0; round < 2; round++) {
        for (const tool of tools) {
          expect(() => ajv.compile(tool.inputSchema), `${tool.name} input`).not.toThrow();
          expect(() => ajv.compile(tool.outputSchema!), `${tool.name} output`).not.toThrow();
        }
      }
    }
  });
});

describe("tool errors in a client that validates like Gemini CLI (SDK 1.x + JSON-text → structuredContent)", () => {
  beforeAll(async () => {
    await client.listTools(); // the SDK 1.x client validates results only for tools it has listed
  });

  it("a success still validates against its outputSchema", async () => {
    const r = await client.callTool({ name: "feature_get", arguments: { feature_id: "feat_a" } });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ feature: { feature_id: "feat_a" } });
  });

  const kinds: [string, string, Record<string, unknown>, string][] = [
    ["a domain error", "feature_get", { feature_id: "feat_nope" }, "feature_not_found"],
    ["bad arguments", "feature_get", { feature_id: "../x" }, "invalid_argument"],
    ["a missing operation id", "feature_init", { feature_id: "feat_b", title: "B" }, "operation_id_required"],
    ["a failed gate", "gates_run", { feature_id: "feat_a", mode: "broken", operation_id: "op-schemas-gate-1" }, "gate_failed"],
    ["a chain that does not exist", "evidence_verify_chain", { feature_id: "feat_none" }, "feature_not_found"],
  ];
  it.each(kinds)("%s arrives as a readable isError result (no -32602)", async (_kind, tool, args, code) => {
    const r = await client.callTool({ name: tool, arguments: args });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toBeUndefined();
    expect(r.content[0]!.text).toMatch(new RegExp(`^Error ${code}: `));
    expect(JSON.parse(r.content.at(-1)!.text!)).toMatchObject({ ok: false, error: { code } });
  });
});
