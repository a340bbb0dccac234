import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { canonicalJson, CanonicalJsonError } from "../../src/core/canonical-json.js";

function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe("canonicalJson — RFC 8785 test vectors", () => {
  // RFC 8785 Appendix B: IEEE-754 bit patterns and their canonical text.
  const numberVectors: [string, string][] = [
    ["0000000000000000", "0"],
    ["8000000000000000", "0"],
    ["0000000000000001", "5e-324"],
    ["8000000000000001", "-5e-324"],
    ["7fefffffffffffff", "1.7976931348623157e+308"],
    ["ffefffffffffffff", "-1.7976931348623157e+308"],
    ["4340000000000000", "9007199254740992"],
    ["c340000000000000", "-9007199254740992"],
    ["4430000000000000", "295147905179352830000"],
    ["44b52d02c7e14af5", "9.999999999999997e+22"],
    ["44b52d02c7e14af6", "1e+23"],
    ["44b52d02c7e14af7", "1.0000000000000001e+23"],
    ["444b1ae4d6e2ef4e", "999999999999999700000"],
    ["444b1ae4d6e2ef4f", "999999999999999900000"],
    ["444b1ae4d6e2ef50", "1e+21"],
    ["3eb0c6f7a0b5ed8c", "9.999999999999997e-7"],
    ["3eb0c6f7a0b5ed8d", "0.000001"],
    ["41b3de4355555553", "333333333.3333332"],
    ["41b3de4355555554", "333333333.33333325"],
    ["41b3de4355555555", "333333333.3333333"],
    ["41b3de4355555556", "333333333.3333334"],
    ["41b3de4355555557", "333333333.33333343"],
    ["becbf647612f3696", "-0.0000033333333333333333"],
    ["43143ff3c1cb0959", "1424953923781206.2"],
  ];
  it.each(numberVectors)("formats the double with bits %s as %s", (bits, expected) => {
    expect(canonicalJson(fromBits(bits))).toBe(expected);
  });

  it("formats 1e21, 1e-7 and -0 as the RFC requires", () => {
    expect(canonicalJson(1e21)).toBe("1e+21");
    expect(canonicalJson(1e-7)).toBe("1e-7");
    expect(canonicalJson(-0)).toBe("0");
    expect(canonicalJson(1e20)).toBe("100000000000000000000");
  });

  it("matches the RFC §3.2.2 example (numbers, escapes, literals)", () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/", "literals": [null, true, false]}',
    );
    expect(canonicalJson(input)).toBe('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
  });

  it("sorts keys by UTF-16 code units (RFC §3.2.3 example)", () => {
    const input = {
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis",
    };
    const keys = Object.keys(JSON.parse(canonicalJson(input)) as object);
    // JSON.parse re-orders integer-like keys, so read the order from the text instead.
    const text = canonicalJson(input);
    const order = ["\\r", "1", "\u0080", "\u00f6", "\u20ac", "\ud83d\ude00", "\ufb33"].map((k) => text.indexOf(`"${k}"`));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(keys).toHaveLength(7);
  });

  it("sorts nested objects and keeps array order", () => {
    expect(canonicalJson({ b: [3, { z: 1, a: 2 }], a: { d: null, c: "x" } })).toBe('{"a":{"c":"x","d":null},"b":[3,{"a":2,"z":1}]}');
  });

  it("omits undefined object members like JSON", () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
  });
});

describe("canonicalJson — rejected input", () => {
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = cyclic;
  const cases: [string, unknown][] = [
    ["NaN", { n: NaN }],
    ["Infinity", [Infinity]],
    ["-Infinity", -Infinity],
    ["a lone high surrogate in a value", { s: "a\ud800b" }],
    ["a lone low surrogate in a key", { "\udc00": 1 }],
    ["a cycle", cyclic],
    ["a BigInt", { n: 10n }],
    ["undefined in an array", [undefined]],
    ["a function", { f: () => 1 }],
    ["a Date instance", { d: new Date(0) }],
    ["a Map instance", new Map()],
  ];
  it.each(cases)("throws CanonicalJsonError for %s", (_name, value) => {
    expect(() => canonicalJson(value)).toThrow(CanonicalJsonError);
  });

  it("names where the bad value is", () => {
    expect(() => canonicalJson({ a: [1, NaN] })).toThrow(/\$\.a\[1\]/);
  });

  it("accepts a repeated (non-cyclic) reference", () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });
});

describe("canonicalJson — properties", () => {
  it("round-trips any JSON value and is a fixed point", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        const reparsed: unknown = JSON.parse(text);
        expect(canonicalJson(reparsed)).toBe(text);
        expect(reparsed).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });

  it("does not depend on key insertion order", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.integer()), (dict) => {
        const reversed = Object.fromEntries(Object.entries(dict).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(dict));
      }),
    );
  });
});
