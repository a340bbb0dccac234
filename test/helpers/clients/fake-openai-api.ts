// A scripted stand-in for the OpenAI Responses and Chat Completions APIs on 127.0.0.1, so real
// clients (Codex, opencode) run whole sessions offline. Stateless: the first user message holding
// directives drives the "model":
//   @@tool <name> <json>   one function call per line, made in order (a name the request does not
//                          offer is matched by suffix, so `feature_init` finds `mcp__aop__feature_init`)
//   @@text <final>         the final answer (default "DONE")
// Every request is kept in `requests` for assertions.
import type http from "node:http";
import { startStandInApi, type FakeApi } from "../stand-in-api.js";

export type { FakeApi };

interface Call {
  name: string;
  input: unknown;
  /** The Responses API namespace the tool was offered in (Codex offers MCP tools as `mcp__<server>`). */
  namespace?: string;
}

let seq = 0;

/** The directives of the first text that holds any. */
export function directives(texts: string[]): { tools: Call[]; final: string | null } | null {
  for (const text of texts) {
    if (!text.includes("@@tool") && !text.includes("@@text")) continue;
    const tools: Call[] = [];
    let final: string | null = null;
    for (const line of text.split("\n")) {
      const tool = /@@tool\s+(\S+)\s+(\{.*\})\s*$/.exec(line);
      // opencode 1.18 sends a prompt of several lines as a JSON string (quotes escaped): read it unescaped.
      if (tool) {
        try {
          tools.push({ name: tool[1]!, input: JSON.parse(tool[2]!) as unknown });
        } catch {
          tools.push({ name: tool[1]!, input: JSON.parse(tool[2]!.replace(/\\"/g, '"')) as unknown });
        }
      }
      const done = /@@text\s+(.*)$/.exec(line);
      if (done) final = done[1]!.replace(/"$/, "");
    }
    return { tools, final };
  }
  return null;
}

/** The offered name a directive means: itself, or the one offered name ending in `_<name>` / `__<name>`. */
function offeredName(name: string, offered: string[]): string | null {
  if (offered.includes(name)) return name;
  const found = offered.filter((o) => o.endsWith(`_${name}`) || o.endsWith(`/${name}`));
  return found.length === 1 ? found[0]! : null;
}

/** The next step: the scripted call after the `made` ones (by count), or the final text. */
export function nextStep(script: { tools: Call[]; final: string | null } | null, made: number, offered: string[]): { call: Call } | { text: string } {
  if (script) {
    const pending = script.tools.slice(made);
    for (const call of pending) {
      const name = offeredName(call.name, offered);
      if (name) {
        const slash = name.indexOf("/");
        return { call: slash < 0 ? { name, input: call.input } : { namespace: name.slice(0, slash), name: name.slice(slash + 1), input: call.input } };
      }
      break;
    }
    return { text: script.final ?? "DONE" };
  }
  return { text: "DONE" };
}

function textOfContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((c: { text?: unknown }) => (typeof c?.text === "string" ? c.text : "")).join("\n");
}

function responsesStep(body: Record<string, unknown>): { call: Call } | { text: string } {
  const input = Array.isArray(body.input) ? (body.input as Record<string, unknown>[]) : [];
  const userTexts = input.filter((i) => i.role === "user").map((i) => textOfContent(i.content));
  const made = input.filter((i) => i.type === "function_call" || i.type === "custom_tool_call" || i.type === "local_shell_call").length;
  // A namespace's tools are offered as `<namespace>/<name>`.
  const offered = ((body.tools as Record<string, unknown>[] | undefined) ?? []).flatMap((t): string[] => {
    if (t.type === "namespace" && Array.isArray(t.tools)) return (t.tools as { name?: unknown }[]).flatMap((n) => (typeof n.name === "string" ? [`${String(t.name)}/${n.name}`] : []));
    return typeof t.name === "string" ? [t.name] : [];
  });
  return nextStep(directives(userTexts.reverse()), made, offered);
}

function sse(res: http.ServerResponse, data: Record<string, unknown>): void {
  res.write(`event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`);
}

function answerResponses(res: http.ServerResponse, body: Record<string, unknown>): void {
  const step = responsesStep(body);
  const id = `resp_fake_${++seq}`;
  const item =
    "call" in step
      ? { type: "function_call", id: `fc_${seq}`, call_id: `call_fake_${seq}`, name: step.call.name, ...(step.call.namespace ? { namespace: step.call.namespace } : {}), arguments: JSON.stringify(step.call.input), status: "completed" }
      : { type: "message", id: `msg_${seq}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: step.text, annotations: [] }] };
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  sse(res, { type: "response.created", response: { id, status: "in_progress", output: [] } });
  sse(res, { type: "response.output_item.added", output_index: 0, item });
  sse(res, { type: "response.output_item.done", output_index: 0, item });
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  sse(res, { type: "response.completed", response: { id, status: "completed", output: [item], usage } });
  res.end();
}

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: unknown[];
}

function chatStep(body: Record<string, unknown>): { call: Call } | { text: string } {
  const messages = (body.messages as ChatMessage[] | undefined) ?? [];
  const userTexts = messages.filter((m) => m.role === "user").map((m) => textOfContent(m.content));
  const made = messages.filter((m) => m.role === "assistant").reduce((n, m) => n + (m.tool_calls?.length ?? 0), 0);
  const offered = ((body.tools as { function?: { name?: string } }[] | undefined) ?? []).flatMap((t) => (typeof t.function?.name === "string" ? [t.function.name] : []));
  return nextStep(directives(userTexts.reverse()), made, offered);
}

function answerChat(res: http.ServerResponse, body: Record<string, unknown>): void {
  const step = chatStep(body);
  const id = `chatcmpl_fake_${++seq}`;
  const model = typeof body.model === "string" ? body.model : "fake";
  const base = { id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model };
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  if ("call" in step) {
    const tool = { index: 0, id: `call_fake_${seq}`, type: "function", function: { name: step.call.name, arguments: JSON.stringify(step.call.input) } };
    send({ ...base, choices: [{ index: 0, delta: { role: "assistant", tool_calls: [tool] }, finish_reason: null }] });
    send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
  } else {
    send({ ...base, choices: [{ index: 0, delta: { role: "assistant", content: step.text }, finish_reason: null }] });
    send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
  }
  res.write("data: [DONE]\n\n");
  res.end();
}

export function startFakeOpenAiApi(): Promise<FakeApi> {
  return startStandInApi((_req, res, path, body) => {
    if (path.endsWith("/responses")) return answerResponses(res, body);
    if (path.endsWith("/chat/completions")) return answerChat(res, body);
    if (path.endsWith("/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ object: "list", data: [{ id: "fake-model", object: "model", owned_by: "aop-test" }], models: [] }));
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: `no such path ${path}` } }));
  });
}
