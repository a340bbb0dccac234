// Three MCP clients nobody on this project wrote, behind one small interface, for the conformance
// suite: the official SDK 1.x client, the SDK 2.x client and the MCP Inspector CLI 0.15 (a process
// per request, as a user runs it). Protocol errors come back as values, never as exceptions.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { CLI_BIN } from "./paths.js";

const require = createRequire(import.meta.url);
const INSPECTOR_CLI = require.resolve("@modelcontextprotocol/inspector-cli/build/index.js");

interface ProtocolFailure {
  error: { code: number; message: string; data?: unknown };
}
export type Outcome<T> = { value: T } | ProtocolFailure;

interface ToolCallResult {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: unknown;
}

export interface ConformanceClient {
  readonly name: string;
  listTools(): Promise<Outcome<{ tools: { name: string; inputSchema: unknown; outputSchema?: unknown }[] }>>;
  callTool(name: string, args: Record<string, unknown>): Promise<Outcome<ToolCallResult>>;
  listResources(): Promise<Outcome<{ resources: { uri: string; name: string; mimeType?: string }[] }>>;
  listResourceTemplates(): Promise<Outcome<{ resourceTemplates: { uriTemplate: string }[] }>>;
  readResource(uri: string): Promise<Outcome<{ contents: { uri: string; mimeType?: string; text?: string }[] }>>;
  listPrompts(): Promise<Outcome<{ prompts: { name: string; arguments?: { name: string; required?: boolean }[] }[] }>>;
  getPrompt(name: string, args: Record<string, string>): Promise<Outcome<{ messages: { role: string; content: { type: string; text?: string; resource?: { uri: string; text?: string } } }[] }>>;
  close(): Promise<void>;
}

function serverEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (typeof v === "string" && !k.startsWith("AOP_")) env[k] = v;
  return { ...env, NO_COLOR: "1", ...extra };
}

async function outcome<T>(work: () => Promise<unknown>): Promise<Outcome<T>> {
  try {
    return { value: (await work()) as T };
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown; data?: unknown };
    if (typeof e.code !== "number") throw err;
    return { error: { code: e.code, message: String(e.message), data: e.data } };
  }
}

interface SdkLikeClient {
  listTools(): Promise<unknown>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  listResources(): Promise<unknown>;
  listResourceTemplates(): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
  listPrompts(): Promise<unknown>;
  getPrompt(params: { name: string; arguments: Record<string, string> }): Promise<unknown>;
  close(): Promise<void>;
}

function sdkDriver(name: string, client: SdkLikeClient): ConformanceClient {
  return {
    name,
    listTools: () => outcome(() => client.listTools()),
    callTool: (tool, args) => outcome(() => client.callTool({ name: tool, arguments: args })),
    listResources: () => outcome(() => client.listResources()),
    listResourceTemplates: () => outcome(() => client.listResourceTemplates()),
    readResource: (uri) => outcome(() => client.readResource({ uri })),
    listPrompts: () => outcome(() => client.listPrompts()),
    getPrompt: (prompt, args) => outcome(() => client.getPrompt({ name: prompt, arguments: args })),
    close: () => client.close(),
  };
}

/** `@modelcontextprotocol/sdk` 1.x: validates structuredContent against outputSchema once tools are listed. */
export async function sdk1Client(root: string, env: Record<string, string> = {}): Promise<ConformanceClient> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, "mcp", "--root", root], cwd: root, env: serverEnv(env), stderr: "pipe" });
  const client = new Client({ name: "conformance-sdk1", version: "1.0.0" });
  await client.connect(transport);
  return sdkDriver("SDK 1.x client", client as unknown as SdkLikeClient);
}

/** `@modelcontextprotocol/client` 2.x, with its default (ajv) validator. */
export async function sdk2Client(root: string, env: Record<string, string> = {}): Promise<ConformanceClient> {
  const { Client } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, "mcp", "--root", root], cwd: root, env: serverEnv(env), stderr: "pipe" });
  const client = new Client({ name: "conformance-sdk2", version: "1.0.0" });
  await client.connect(transport);
  return sdkDriver("SDK 2.x client", client as unknown as SdkLikeClient);
}

interface InspectorRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `mcp-inspector --cli node bin/aop.js mcp … --method …`: the server command first, its options last. */
function runInspector(root: string, args: string[]): Promise<InspectorRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [INSPECTOR_CLI, process.execPath, CLI_BIN, "mcp", ...args], { cwd: root, env: serverEnv() });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

/** The Inspector CLI prints the result as JSON and exits 0, or prints `… MCP error <code>: <message>` and exits 1. */
async function inspect<T>(root: string, args: string[]): Promise<Outcome<T>> {
  const r = await runInspector(root, args);
  if (r.code === 0) return { value: JSON.parse(r.stdout) as T };
  const m = /MCP error (-?\d+): (.*)/.exec(r.stderr);
  if (!m) throw new Error(`inspector failed without an MCP error (exit ${r.code}):\n${r.stderr}`);
  return { error: { code: Number(m[1]), message: m[2]! } };
}

export function inspectorClient(root: string): ConformanceClient {
  const pairs = (args: Record<string, unknown>) => Object.entries(args).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  return {
    name: "MCP Inspector CLI 0.15",
    listTools: () => inspect(root, ["--method", "tools/list"]),
    callTool: (tool, args) => inspect(root, ["--method", "tools/call", "--tool-name", tool, ...(Object.keys(args).length ? ["--tool-arg", ...pairs(args)] : [])]),
    listResources: () => inspect(root, ["--method", "resources/list"]),
    listResourceTemplates: () => inspect(root, ["--method", "resources/templates/list"]),
    readResource: (uri) => inspect(root, ["--method", "resources/read", "--uri", uri]),
    listPrompts: () => inspect(root, ["--method", "prompts/list"]),
    getPrompt: (prompt, args) => inspect(root, ["--method", "prompts/get", "--prompt-name", prompt, ...(Object.keys(args).length ? ["--prompt-args", ...pairs(args)] : [])]),
    close: async () => undefined,
  };
}
