import { describe, expect, it } from "vitest";
import { TopLevelIdSniffer } from "../../../src/adapters/mcp/top-level-id-sniffer.js";

function sniff(text: string, chunk: number): string | number | null {
  const s = new TopLevelIdSniffer();
  const buf = Buffer.from(text);
  for (let i = 0; i < buf.length; i += chunk) s.feed(buf.subarray(i, i + chunk));
  return s.id();
}

describe("TopLevelIdSniffer", () => {
  it.each([1, 3, 7, 4096])("finds the top-level id fed in %i-byte chunks, ignoring nested ids and ids inside strings", (chunk) => {
    const text = JSON.stringify({ method: "tools/call", params: { id: 99, arguments: { note: '"id":5', list: [{ id: 6 }] } }, jsonrpc: "2.0", id: 42 });
    expect(sniff(text, chunk)).toBe(42);
    expect(sniff(JSON.stringify({ id: "req-\"7\"", params: {} }), chunk)).toBe('req-"7"');
  });

  it("gives null without a usable top-level id", () => {
    expect(sniff(JSON.stringify({ params: { id: 1 } }), 5)).toBeNull();
    expect(sniff(JSON.stringify({ id: { nested: 1 } }), 5)).toBeNull();
    expect(sniff('{"id": 12', 2)).toBe(12);
  });
});
