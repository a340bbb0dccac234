import { describe, expect, it } from "vitest";
import { blockOutput, contextOutput, MAX_HOOK_OUTPUT_CHARS, plainOutput, systemMessageOutput } from "../../../src/domains/agents/hook-output.js";

// Quotes, backslashes, control characters and astral characters all grow when JSON-escaped.
const NASTY = `"quoted" \\ back\u0001slash 🚀 ${"x".repeat(20)}\n`.repeat(2000);

describe("hook output is capped at 10,000 characters", () => {
  it.each([
    ["context", (t: string) => contextOutput("SessionStart", t)],
    ["systemMessage", systemMessageOutput],
    ["block", blockOutput],
  ])("%s: a long text is cut, the JSON stays valid and says where it was cut", (_name, render) => {
    const out = render(NASTY);
    expect(out.length).toBeLessThanOrEqual(MAX_HOOK_OUTPUT_CHARS);
    const parsed = JSON.parse(out) as Record<string, unknown>;
    const text = JSON.stringify(parsed);
    expect(text).toMatch(/…/);
    expect(out.length).toBeGreaterThan(MAX_HOOK_OUTPUT_CHARS - 200);
  });

  it("leaves short texts whole", () => {
    expect(JSON.parse(contextOutput("SessionStart", "hello"))).toEqual({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "hello" } });
    expect(plainOutput("keep the objective")).toBe("keep the objective\n");
  });

  it("plain text is capped too and never starts with { (Claude Code would parse it as JSON)", () => {
    const out = plainOutput("{" + NASTY);
    expect(out.length).toBeLessThanOrEqual(MAX_HOOK_OUTPUT_CHARS);
    expect(out.startsWith("{")).toBe(false);
  });
});
