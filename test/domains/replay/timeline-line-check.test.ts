// lineSequence must say what JSON.parse (then the entry test) says of every line's bytes, or UNSURE.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { entrySequence } from "../../../src/domains/replay/timeline-entry.js";
import { lineSequence, NOT_ENTRY, NOT_JSON, UNSURE } from "../../../src/domains/replay/timeline-line-check.js";

/** The reference: the line's UTF-8 text through JSON.parse, then the entry test. */
function reference(bytes: Buffer): number {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch {
    return NOT_JSON;
  }
  return entrySequence(value) ?? NOT_ENTRY;
}

function agrees(bytes: Buffer): void {
  const fast = lineSequence(bytes, 0, bytes.length);
  if (fast === UNSURE) return;
  expect(Object.is(fast, reference(bytes)) || fast === reference(bytes), `${JSON.stringify(bytes.toString("latin1"))}: ${fast} against ${reference(bytes)}`).toBe(true);
}

const entry = { ts: "2026-10-01T00:00:00.000Z", sequence: 7, run_id: "run-1", session_id: null, actor_type: "orchestrator", tool_name: "feature.get", mutating: false, latency_ms: 1.5 };

describe("lineSequence against JSON.parse", () => {
  it("reads a timeline entry's sequence", () => {
    const bytes = Buffer.from(JSON.stringify(entry));
    expect(lineSequence(bytes, 0, bytes.length)).toBe(7);
    expect(reference(bytes)).toBe(7);
  });

  it("agrees on hand-picked lines: duplicates, escapes, number forms, nesting, whitespace, BOM, surrogates", () => {
    const lines = [
      '{"sequence":1,"tool_name":"a"}', '{"sequence":1,"tool_name":"a","sequence":"x"}', '{"sequence":"x","tool_name":"a","sequence":2}',
      '{"tool_name":1,"sequence":1,"tool_name":"b"}', '{"tool_name":"b","sequence":1,"tool_name":null}', '{"sequence":1}', '{"tool_name":"a"}',
      '{"sequence":-1,"tool_name":"a"}', '{"sequence":-0,"tool_name":"a"}', '{"sequence":1.0,"tool_name":"a"}', '{"sequence":1.5,"tool_name":"a"}',
      '{"sequence":1e2,"tool_name":"a"}', '{"sequence":1E+2,"tool_name":"a"}', '{"sequence":1e-2,"tool_name":"a"}', '{"sequence":1e400,"tool_name":"a"}',
      '{"sequence":9007199254740993,"tool_name":"a"}', '{"sequence":01,"tool_name":"a"}', '{"sequence":1.,"tool_name":"a"}', '{"sequence":.5,"tool_name":"a"}',
      '{"sequence":+1,"tool_name":"a"}', '{"sequence":1e,"tool_name":"a"}', '{"sequence":-,"tool_name":"a"}', '{"sequence":0x1,"tool_name":"a"}',
      '{"sequence":[1],"tool_name":"a"}', '{"sequence":{"a":1},"tool_name":"a"}', '{"sequence":1,"tool_name":["a"]}', '{"sequence":1,"tool_name":{}}',
      '{"a":{"sequence":1,"tool_name":"a"}}', '[{"sequence":1,"tool_name":"a"}]', '{"a":[1,{"b":[[],{}]}],"sequence":3,"tool_name":"x"}',
      ' \t{ "sequence" : 4 , "tool_name" : "x" } \r', '{"sequence":4,"tool_name":"x"}\f', '\u00a0{"sequence":4,"tool_name":"x"}',
      '\ufeff{"sequence":4,"tool_name":"x"}', '{"sequence":4,"tool_name":"\\ud800"}', '{"sequence":4,"tool_name":"\\u00e9\\n\\t\\"\\\\\\/\\b\\f\\r"}',
      '{"sequence":4,"tool_name":"\\x"}', '{"sequence":4,"tool_name":"\\u12"}', '{"sequence":4,"tool_name":"\\u12g4"}', '{"sequence":4,"tool_name":"a\tb"}',
      '{"sequ\\u0065nce":4,"tool_name":"x"}', '{"sequence":4,"tool_n\\u0061me":"x"}', '{"sequence":4,"tool_name":"x",}', '{"sequence":4,,"tool_name":"x"}',
      '{"sequence":4 "tool_name":"x"}', '{"sequence" 4,"tool_name":"x"}', '{sequence:4,"tool_name":"x"}', "{'sequence':4,'tool_name':'x'}",
      '{"sequence":4,"tool_name":"x"}}', '{"sequence":4,"tool_name":"x"', '{"sequence":4,"tool_name":"x}', '{"sequence":true,"tool_name":"x"}',
      '{"sequence":4,"tool_name":"x","z":tru}', '{"sequence":4,"tool_name":"x","z":nulll}', '{"sequence":4,"tool_name":"x","z":[1,]}', '{"sequence":4,"tool_name":"x","z":[,1]}',
      '{}', '[]', '"x"', '1', 'null', 'true', '', ' ', '{"a":1}{"b":2}', '{"sequence":4,"tool_name":"é"}', '{"sequence":4,"tool_name":"x","é":1}',
      '{"__proto__":1,"sequence":5,"tool_name":"x"}', '{"sequence":4,"tool_name":"x","n":-0.0e-0}', '{"sequence":4,"tool_name":"x","n":[[[[[[[[]]]]]]]]}',
    ];
    for (const line of lines) agrees(Buffer.from(line));
    // Raw bytes: malformed UTF-8 in and out of strings, a lone surrogate encoded as bytes, NUL.
    for (const bytes of [[0x7b, 0x22, 0x73, 0xff, 0x22, 0x3a, 0x31, 0x7d], [0xff, 0x7b, 0x7d], [0x7b, 0x7d, 0xc3], [0x7b, 0x7d, 0x00], [0x22, 0xed, 0xa0, 0x80, 0x22], [0x22, 0xc3, 0x22], [0x22, 0xe2, 0x82, 0x22]]) agrees(Buffer.from(bytes));
    agrees(Buffer.concat([Buffer.from('{"sequence":4,"tool_name":"'), Buffer.from([0xf0, 0x9f, 0x98]), Buffer.from('"}')]));
    agrees(Buffer.from("[".repeat(50_000) + "]".repeat(50_000)));
  });

  it("agrees on generated JSON values and entries", () => {
    const key = fc.oneof(fc.constantFrom("sequence", "tool_name", "ts", "run_id"), fc.string());
    const value = fc.jsonValue();
    const member = fc.tuple(key, fc.oneof(value, fc.integer({ min: -3, max: 1e6 }), fc.double(), fc.string()));
    fc.assert(
      fc.property(fc.array(member, { maxLength: 8 }), fc.constantFrom("", " ", "\t", "\r"), (members, ws) => {
        // Members written by hand so that duplicate keys stay in the text.
        const text = `${ws}{${members.map(([k, v]) => `${JSON.stringify(k)}${ws}:${ws}${JSON.stringify(v) ?? "null"}`).join(`,${ws}`)}}${ws}`;
        agrees(Buffer.from(text));
      }),
      { numRuns: 3000 },
    );
    fc.assert(fc.property(value, (v) => agrees(Buffer.from(JSON.stringify(v) ?? "null"))), { numRuns: 2000 });
  });

  it("agrees on mutated entries: a byte changed, dropped or inserted", () => {
    const base = Buffer.from(JSON.stringify({ ...entry, error_code: null, tags: ["a", { b: 1 }], note: "é\\u" }));
    const specials = [0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d, 0x20, 0x09, 0x0d, 0x00, 0x1f, 0x2d, 0x2b, 0x2e, 0x65, 0x30, 0x31, 0x75, 0x6e, 0x74, 0x66, 0x80, 0xc3, 0xff];
    const byte = fc.oneof(fc.constantFrom(...specials), fc.integer({ min: 0, max: 255 }));
    fc.assert(
      fc.property(fc.nat(base.length - 1), byte, fc.constantFrom("set", "drop", "insert"), (at, b, how) => {
        const bytes = how === "set" ? Buffer.from(base) : how === "drop" ? Buffer.concat([base.subarray(0, at), base.subarray(at + 1)]) : Buffer.concat([base.subarray(0, at), Buffer.from([b]), base.subarray(at)]);
        if (how === "set") bytes[at] = b;
        agrees(bytes);
      }),
      { numRuns: 5000 },
    );
  });

  it("reads only the given range of a larger buffer", () => {
    const bytes = Buffer.from(`xx${JSON.stringify(entry)}yy`);
    expect(lineSequence(bytes, 2, bytes.length - 2)).toBe(7);
  });
});
