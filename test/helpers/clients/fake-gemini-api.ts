// A scripted stand-in for the Gemini API (generateContent / streamGenerateContent) on 127.0.0.1, so
// the real Gemini CLI runs whole sessions offline. The same directives as fake-openai-api.ts drive it:
// `@@tool <name> <json>` lines in the first user text, then `@@text <final>`. Every request is kept.
import { startStandInApi, type FakeApi } from "../stand-in-api.js";
import { directives, nextStep } from "./fake-openai-api.js";

interface Part {
  text?: string;
  functionCall?: { name: string; args?: unknown };
  functionResponse?: unknown;
}
interface Content {
  role?: string;
  parts?: Part[];
}

function step(body: Record<string, unknown>): ReturnType<typeof nextStep> {
  const contents = (body.contents as Content[] | undefined) ?? [];
  const userTexts = contents.filter((c) => c.role === "user").map((c) => (c.parts ?? []).map((p) => p.text ?? "").join("\n"));
  const made = contents.filter((c) => c.role === "model").reduce((n, c) => n + (c.parts ?? []).filter((p) => p.functionCall).length, 0);
  const offered = ((body.tools as { functionDeclarations?: { name?: string }[] }[] | undefined) ?? []).flatMap((t) => (t.functionDeclarations ?? []).flatMap((d) => (typeof d.name === "string" ? [d.name] : [])));
  return nextStep(directives(userTexts), made, offered);
}

function reply(body: Record<string, unknown>): Record<string, unknown> {
  const s = step(body);
  const part = "call" in s ? { functionCall: { name: s.call.name, args: s.call.input } } : { text: s.text };
  return {
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: "gemini-fake",
  };
}

export function startFakeGeminiApi(): Promise<FakeApi> {
  return startStandInApi((_req, res, path, body) => {
    if (path.endsWith(":countTokens")) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ totalTokens: 10 }));
    }
    if (path.endsWith(":streamGenerateContent")) {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify(reply(body))}\r\n\r\n`);
      return res.end();
    }
    if (path.endsWith(":generateContent")) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify(reply(body)));
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: 404, message: `no such path ${path}`, status: "NOT_FOUND" } }));
  });
}
