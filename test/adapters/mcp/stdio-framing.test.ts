// What `aop mcp` does with lines no client should send: unparseable (-32700), not JSON-RPC (-32600),
// over the 10 MiB message limit (-32000, the connection stays up), and the end of stdin (exit 0).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { describe, expect, it } from "vitest";
import { CLI_BIN } from "../../helpers/paths.js";
import { sdk1Client } from "../../helpers/mcp-clients.js";
import { tempWorkspace } from "../../helpers/tmp.js";

const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
const MIB = 1024 * 1024;

/** `aop mcp` over raw pipes: send lines, wait for the answer with a given id. */
function rawServer(root: string) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI_BIN, "mcp", "--root", root], { stdio: ["pipe", "pipe", "pipe"] });
  const answers: Record<string, unknown>[] = [];
  let buffer = "";
  let stderr = "";
  const waiters: (() => void)[] = [];
  child.stdout.on("data", (d: Buffer) => {
    buffer += d.toString();
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      answers.push(JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>);
      buffer = buffer.slice(nl + 1);
      for (const w of waiters.splice(0)) w();
    }
  });
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    send: (line: string | object) => child.stdin.write((typeof line === "string" ? line : JSON.stringify(line)) + "\n"),
    async answer(match: (a: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
      for (;;) {
        const found = answers.find(match);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    end: () => child.stdin.end(),
    exited,
    stderr: () => stderr,
  };
}

const withId = (id: unknown) => (a: Record<string, unknown>) => a.id === id;

describe("aop mcp stdio framing", () => {
  it("answers an unparseable line with -32700 and a non-JSON-RPC line with -32600, and keeps serving", async () => {
    const server = rawServer(tempWorkspace());
    server.send(INIT);
    await server.answer(withId(1));
    server.send("this is not json");
    const parse = await server.answer((a) => a.id === null && (a.error as { code: number }).code === -32700);
    expect(parse).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } });
    server.send({ hello: "world", id: 7 });
    expect(await server.answer(withId(7))).toMatchObject({ error: { code: -32600 } });
    server.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    expect(await server.answer(withId(2))).toMatchObject({ result: {} });
    server.end();
    expect(await server.exited).toBe(0);
  });

  it("answers a message over 10 MiB with -32000 for its id, answers the next request, and exits 0 at the end of stdin", async () => {
    const server = rawServer(tempWorkspace());
    server.send(INIT);
    await server.answer(withId(1));
    // Written the way SDK clients write: the id last, after 11 MiB of arguments.
    server.send(`{"method":"tools/call","params":{"name":"feature_list","arguments":{"pad":"${"x".repeat(11 * MIB)}"}},"jsonrpc":"2.0","id":3}`);
    const tooLarge = await server.answer(withId(3));
    expect(tooLarge).toMatchObject({ error: { code: -32000, message: expect.stringMatching(/^Payload Too Large: a message must not exceed 10485760 bytes/) } });
    server.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "feature_list", arguments: {} } });
    expect(await server.answer(withId(4))).toMatchObject({ result: { structuredContent: { features: [] } } });
    server.end();
    expect(await server.exited).toBe(0);
  }, 60_000);

  it("an SDK 1.x client sending an oversize call gets an error for it and its next call still works", async () => {
    const client = await sdk1Client(tempWorkspace());
    try {
      const big = await client.callTool("feature_list", { pad: "y".repeat(11 * MIB) });
      expect(big).toMatchObject({ error: { code: -32000, message: expect.stringMatching(/Payload Too Large/) } });
      const next = await client.callTool("feature_list", {});
      expect(next).toMatchObject({ value: { structuredContent: { features: [] } } });
    } finally {
      await client.close();
    }
  }, 60_000);
});
