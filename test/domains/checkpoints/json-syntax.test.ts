import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findJsonSyntaxError, lineAndColumn } from "../../../src/domains/checkpoints/json-syntax.js";

describe("findJsonSyntaxError", () => {
  it("finds nothing wrong in any JSON that JSON.stringify produces", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        expect(findJsonSyntaxError(JSON.stringify(value, null, pretty ? 2 : undefined))).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it("agrees with JSON.parse on arbitrary text: an error exactly when JSON.parse throws", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.jsonValue().map((v) => JSON.stringify(v)).chain((s) => fc.nat(s.length).map((cut) => s.slice(0, cut) + s.slice(cut + 1)))), (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        const found = findJsonSyntaxError(text);
        expect(found === null).toBe(parses);
        if (found) expect(found.offset).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 500 },
    );
  });

  it("survives deeply nested garbage without recursion", () => {
    expect(findJsonSyntaxError("[".repeat(200_000))).toMatchObject({ message: "unexpected end of file: '[' is never closed" });
  });

  it.each([
    ['{"a" 1}', 1, 6, "expected ':' after the property name, found '1'"],
    ['{"a": tru}', 1, 7, "expected a value, found 't'"],
    ['{"a": "\\x"}', 1, 8, "invalid escape '\\x' in a string"],
    ['{"a": "\\u12G4"}', 1, 8, "invalid \\u escape: expected four hex digits"],
    ['{"a": -}', 1, 7, "invalid number"],
    ['{"a": 1,}', 1, 9, "trailing comma before '}'"],
  ])("%s → line %i, column %i", (text, line, column, message) => {
    expect(findJsonSyntaxError(text)).toMatchObject({ line, column, message });
  });

  it("counts lines and columns from 1", () => {
    expect(lineAndColumn("ab\ncd\nef", 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn("ab\ncd\nef", 4)).toEqual({ line: 2, column: 2 });
    expect(lineAndColumn("ab\ncd\nef", 6)).toEqual({ line: 3, column: 1 });
  });
});
