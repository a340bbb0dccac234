// The streaming read of a hook event over the read bound: top-level short scalars kept, the rest passed
// over with its key noted, whatever the chunking and however large the event.
import { describe, expect, it } from "vitest";
import { EventScanner, MAX_NESTED_BYTES, MAX_SCALAR_BYTES } from "../../../src/domains/agents/event-scan.js";

function scan(text: string | Buffer, chunk = 7) {
  const bytes = typeof text === "string" ? Buffer.from(text) : text;
  const s = new EventScanner();
  for (let i = 0; i < bytes.length; i += chunk) s.push(bytes.subarray(i, i + chunk));
  return s.result();
}

describe("EventScanner", () => {
  it("keeps the top-level fields, small objects included, and names the keys it passed over, for any chunk size", () => {
    const input = { content: 'a "quoted" \\ line\n{[\\', n: [1, { x: "}" }] };
    const event = { session_id: "s-1", hook_event_name: "PostToolUse", tool_name: "Write", tool_input: input, tool_response: { content: "y".repeat(MAX_NESTED_BYTES) }, tool_use_id: "toolu_é\n\"x\u2028\\", duration_ms: 12.5, is_interrupt: false, agent_id: null };
    const text = JSON.stringify(event, null, 1);
    for (const chunk of [1, 2, 3, 7, 64, 1 << 20]) {
      expect(scan(text, chunk), `chunk ${chunk}`).toEqual({
        bytes: Buffer.byteLength(text),
        fields: { session_id: "s-1", hook_event_name: "PostToolUse", tool_name: "Write", tool_input: input, tool_use_id: "toolu_é\n\"x\u2028\\", duration_ms: 12.5, is_interrupt: false, agent_id: null },
        unread: ["tool_response"],
        problem: null,
        complete: true,
      });
    }
  });

  it("passes over a string longer than the bound for a kept value, and reads what follows it", () => {
    const long = "x".repeat(MAX_SCALAR_BYTES + 1);
    expect(scan(JSON.stringify({ hook_event_name: "UserPromptSubmit", prompt: long, session_id: "s" }), 4096)).toMatchObject({ fields: { hook_event_name: "UserPromptSubmit", session_id: "s" }, unread: ["prompt"], complete: true });
  });

  it("reads 34 MiB of escaped text in chunks quickly, holding nothing of it", () => {
    const content = "line \\ \"q\"\n".repeat(3_200_000);
    const text = JSON.stringify({ session_id: "s-big", hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { content }, tool_use_id: "toolu_big" });
    const bytes = Buffer.from(text);
    expect(bytes.length).toBeGreaterThan(34 * 1024 * 1024);
    const started = performance.now();
    const result = scan(bytes, 64 * 1024);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({ fields: { session_id: "s-big", tool_use_id: "toolu_big" }, unread: ["tool_input"], complete: true });
  });

  it.each([
    ["", "is empty"],
    ["[1,2]", "is not a JSON object"],
    ['{"a":1', "ends before its top-level object is closed"],
    ['{"a" 1}', "is not valid JSON (':' was expected)"],
    ['{"a":nope}', "is not valid JSON (a value was expected)"],
    ['{"a":1} x', "is not valid JSON (text after the object)"],
    ["garbage", "is not a JSON object"],
  ])("says why %j is not an event", (text, problem) => {
    expect(scan(text).problem).toBe(problem);
  });
});
