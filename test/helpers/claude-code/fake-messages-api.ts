// A scripted stand-in for the Anthropic Messages API on 127.0.0.1, so the real Claude Code CLI runs a
// whole session offline and its own validator judges aop's hook outputs. Stateless: the first user
// message that holds directives drives the "model":
//   @@tool <Name> <json>   one tool call per line, made in order (skipped when the request does not
//                          offer the tool, so a subagent never repeats its parent's calls)
//   @@text <final>         the final answer (default "DONE")
// A request without directives (a subagent, a compaction, a side call) gets a plain answer, or a
// <summary> when it asks for one. Every request is kept in `requests` for assertions.
import type http from "node:http";
import { startStandInApi, type FakeApi } from "../stand-in-api.js";

export type { FakeApi };

interface Block {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
}
interface Message {
  role: string;
  content: string | Block[];
}

let seq = 0;

function textOf(content: Message["content"]): string {
  if (typeof content === "string") return content;
  return content.filter((b) => b.type === "text").map((b) => b.text ?? "").join("\n");
}

function directives(messages: Message[]): { tools: { name: string; input: unknown }[]; final: string | null } | null {
  for (const m of messages) {
    if (m.role !== "user") continue;
    const text = textOf(m.content);
    if (!text.includes("@@tool") && !text.includes("@@text")) continue;
    const tools: { name: string; input: unknown }[] = [];
    let final: string | null = null;
    for (const line of text.split("\n")) {
      const tool = /@@tool\s+(\S+)\s+(\{.*\})\s*$/.exec(line);
      if (tool) tools.push({ name: tool[1]!, input: JSON.parse(tool[2]!) as unknown });
      const done = /@@text\s+(.*)$/.exec(line);
      if (done) final = done[1]!;
    }
    return { tools, final };
  }
  return null;
}

/** The next assistant turn for a request: the first scripted call not yet made, else the final text. */
function plan(body: Record<string, unknown>): { content: Block[]; stop_reason: string } {
  const messages = (body.messages as Message[] | undefined) ?? [];
  const script = directives(messages);
  const made = messages.filter((m) => m.role === "assistant" && Array.isArray(m.content)).flatMap((m) => (m.content as Block[]).filter((b) => b.type === "tool_use").map((b) => b.name));
  const offered = new Set(((body.tools as { name: string }[] | undefined) ?? []).map((t) => t.name));
  if (script) {
    let i = 0;
    for (const call of script.tools) {
      if (i < made.length && made[i] === call.name) {
        i++;
        continue;
      }
      if (!offered.has(call.name) || i < made.length) continue;
      return { content: [{ type: "text", text: `Calling ${call.name}.` }, { type: "tool_use", id: `toolu_fake_${Date.now()}_${++seq}`, name: call.name, input: call.input }], stop_reason: "tool_use" };
    }
  }
  const last = messages.length > 0 ? textOf(messages[messages.length - 1]!.content) : "";
  const text = script?.final ?? (/summar/i.test(last) ? "<summary>Fake summary of the conversation.</summary>" : "DONE");
  return { content: [{ type: "text", text }], stop_reason: "end_turn" };
}

function sse(res: http.ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function answer(res: http.ServerResponse, body: Record<string, unknown>): void {
  const p = plan(body);
  const id = `msg_fake_${Date.now()}_${++seq}`;
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const model = typeof body.model === "string" ? body.model : "claude-fake";
  if (!body.stream) {
    res.writeHead(200, { "content-type": "application/json", "request-id": id });
    res.end(JSON.stringify({ id, type: "message", role: "assistant", model, content: p.content, stop_reason: p.stop_reason, stop_sequence: null, usage }));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive", "request-id": id });
  sse(res, "message_start", { type: "message_start", message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
  p.content.forEach((block, index) => {
    if (block.type === "text") {
      sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } });
    } else {
      sse(res, "content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
      sse(res, "content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
    }
    sse(res, "content_block_stop", { type: "content_block_stop", index });
  });
  sse(res, "message_delta", { type: "message_delta", delta: { stop_reason: p.stop_reason, stop_sequence: null }, usage: { output_tokens: 5 } });
  sse(res, "message_stop", { type: "message_stop" });
  res.end();
}

export function startFakeMessagesApi(): Promise<FakeApi> {
  return startStandInApi((req, res, path, body) => {
    if (req.method === "POST" && path === "/v1/messages") return answer(res, body);
    if (req.method === "POST" && path === "/v1/messages/count_tokens") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ input_tokens: 100 }));
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: `no ${req.method} ${path} here` } }));
  });
}
