// The OpenClaw plugin aop writes, run in-process with a stand-in for OpenClaw's plugin API: OpenClaw does
// not wait for its void hooks (after_tool_call), so the plugin must run its hook processes one after
// another for the timeline to keep the calls' order.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { openclawPluginSource } from "../../../src/domains/agents/openclaw-plugin.js";
import { tempDir } from "../../helpers/tmp.js";

type Handler = (event: Record<string, unknown>, ctx: Record<string, unknown>) => Promise<unknown>;

/** The plugin written with a stand-in hook that logs each event's tool name, the one named `slow` 400 ms late. */
async function pluginWithLoggingHook(slow: string): Promise<{ afterToolCall: Handler; logged: () => string[] }> {
  const dir = tempDir("aop-claw-plugin-");
  const log = path.join(dir, "order.log");
  const fakeHook = path.join(dir, "fake-hook.cjs");
  fs.writeFileSync(
    fakeHook,
    `let input = ""; process.stdin.on("data", (d) => (input += d)); process.stdin.on("end", () => {
  const event = JSON.parse(input);
  setTimeout(() => { require("node:fs").appendFileSync(${JSON.stringify(log)}, event.tool_name + "\\n"); }, event.tool_name === ${JSON.stringify(slow)} ? 400 : 0);
});\n`,
  );
  const pluginFile = path.join(dir, "index.mjs");
  fs.writeFileSync(pluginFile, openclawPluginSource(`${JSON.stringify(process.execPath)} ${JSON.stringify(fakeHook)}`, dir));
  const plugin = (await import(pathToFileURL(pluginFile).href)) as { default: { register(api: { on(name: string, handler: Handler): void }): void } };
  const handlers = new Map<string, Handler>();
  plugin.default.register({ on: (name, handler) => void handlers.set(name, handler) });
  return { afterToolCall: handlers.get("after_tool_call")!, logged: () => fs.readFileSync(log, "utf8").trimEnd().split("\n") };
}

describe("the OpenClaw plugin", () => {
  // Two after_tool_call events fired as OpenClaw fires a void hook (not awaited before the next), the
  // first one's hook 400 ms slower: run at once, they would be logged swapped.
  it.each([
    ["runs a session's hooks one at a time, in the order the events came, though OpenClaw does not wait for them", "s-1", ["slow", "quick"]],
    ["does not hold one session's hooks behind another's", "s-2", ["quick", "slow"]],
  ])("%s", async (_name, secondSession, expected) => {
    const { afterToolCall, logged } = await pluginWithLoggingHook("slow");
    const first = afterToolCall({ toolName: "slow", toolCallId: "call_1", params: {} }, { sessionId: "s-1" });
    const second = afterToolCall({ toolName: "quick", toolCallId: "call_2", params: {} }, { sessionId: secondSession });
    await Promise.all([first, second]);
    expect(logged()).toEqual(expected);
  });
});
