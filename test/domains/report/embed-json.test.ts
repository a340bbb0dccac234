import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { embedJson } from "../../../src/domains/report/embed-json.js";

describe("JSON embedded in a script element", () => {
  it("cannot close its element or open a comment, and parses back to the same value", () => {
    const hostile = { tool_name: "</script><img src=x onerror=alert(1)>", title: "<!-- x --> </SCRIPT >", summary: "a\u2028b\u2029c & >" };
    const text = embedJson(hostile);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(hostile);
  });

  it("holds for any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = embedJson(value);
        expect(/[<\u2028\u2029]/.test(text)).toBe(false);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});
