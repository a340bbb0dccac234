import { describe, expect, it } from "vitest";
import { compareOrder, decodeCursor, docMatches, encodeCursor, NewestPage, parseQuery, parseSince, snippet, tokenize, type PlacedDoc, type SearchDoc } from "../../../src/domains/search/search-match.js";

function doc(over: Partial<SearchDoc> & { key: string }): PlacedDoc {
  return { kind: "step", ts: "2026-12-01T10:00:00.000Z", title: "t", fields: [], open: "aop x", where: "", ...over };
}

describe("tokenize and parseQuery", () => {
  it("splits on anything but letters and digits, lower-cases, and cuts long words", () => {
    expect(tokenize("feature.init run:ABC replay_run_not_found Ünïcode-42")).toEqual(["feature", "init", "run", "abc", "replay", "run", "not", "found", "ünïcode", "42"]);
    expect(tokenize("x".repeat(100))[0]).toHaveLength(64);
  });
  it("deduplicates the query's words and refuses too many", () => {
    expect(parseQuery("Login login LOGIN page")).toEqual(["login", "page"]);
    expect(() => parseQuery(Array.from({ length: 17 }, (_, i) => `w${i}`).join(" "))).toThrow(/at most 16/);
  });
});

describe("docMatches", () => {
  const d = doc({ key: "a", fields: ["feature.get", "feature_not_found", "login-page"], tool_name: "feature.get", feature_id: "login-page", result: "error" });
  it("needs every word, each the start of some word, any case", () => {
    expect(docMatches(d, ["login", "not"], {})).toBe(true);
    expect(docMatches(d, ["log", "FEAT".toLowerCase()], {})).toBe(true);
    expect(docMatches(d, ["login", "missing"], {})).toBe(false);
    expect(docMatches(d, ["ogin"], {})).toBe(false); // the middle of a word is not a match
    expect(docMatches(d, [], {})).toBe(true);
  });
  it("applies each filter, and leaves out a hit that lacks the filtered field", () => {
    expect(docMatches(d, [], { tool_name: "feature.get" })).toBe(true);
    expect(docMatches(d, [], { tool_name: "feature.init" })).toBe(false);
    expect(docMatches(d, [], { feature_id: "other" })).toBe(false);
    expect(docMatches(d, [], { result: "ok" })).toBe(false);
    expect(docMatches(d, [], { since: "2026-12-01T10:00:00.000Z" })).toBe(true);
    expect(docMatches(d, [], { since: "2026-12-01T10:00:00.001Z" })).toBe(false);
    expect(docMatches(d, [], { kinds: ["memory"] })).toBe(false);
    const memory = doc({ key: "m", kind: "memory", fields: ["Login notes"] });
    expect(docMatches(memory, ["login"], { tool_name: "feature.get" })).toBe(false);
    expect(docMatches(doc({ key: "u", ts: null, fields: ["x"] }), [], { since: "2000-01-01T00:00:00.000Z" })).toBe(false);
  });
  it("takes the snippet from the first field holding a word", () => {
    expect(snippet(d, ["login"])).toBe("login-page");
    expect(snippet(doc({ key: "s", fields: ["a", "long\n\ntext ".repeat(40)] }), ["long"])).toMatch(/^long text long text .*…$/);
  });
});

describe("order, page and cursor", () => {
  it("orders newest first, undated last, ties by workspace then key (descending)", () => {
    const keys = [
      { ts: null, where: "", key: "z" },
      { ts: "2026-12-01T00:00:00.000Z", where: "", key: "a" },
      { ts: "2026-12-02T00:00:00.000Z", where: "", key: "a" },
      { ts: "2026-12-01T00:00:00.000Z", where: "", key: "b" },
      { ts: "2026-12-01T00:00:00.000Z", where: "w", key: "a" },
    ];
    expect(keys.sort(compareOrder).map((k) => `${k.ts?.slice(8, 10) ?? "--"}${k.where}${k.key}`)).toEqual(["02a", "01wa", "01b", "01a", "--z"]);
  });
  it("keeps the first page whatever order items are offered in, and a cursor starts the next one after it", () => {
    const all = Array.from({ length: 50 }, (_, i) => doc({ key: `k${String(i).padStart(2, "0")}`, ts: `2026-12-01T00:00:${String(i % 7).padStart(2, "0")}.000Z` }));
    const shuffled = [...all].sort((a, b) => (a.key.charCodeAt(2) * 7 + a.key.charCodeAt(1)) % 11 - (b.key.charCodeAt(2) * 7 + b.key.charCodeAt(1)) % 11);
    const expected = [...all].sort(compareOrder);
    const seen: string[] = [];
    let after = null;
    for (;;) {
      const page = new NewestPage<PlacedDoc>(8, after);
      for (const d of shuffled) page.offer(d);
      if (page.items.length === 0) break;
      seen.push(...page.items.map((d) => d.key));
      after = decodeCursor(encodeCursor(page.items[page.items.length - 1]!));
    }
    expect(seen).toEqual(expected.map((d) => d.key));
  });
  it("refuses a cursor it did not make", () => {
    expect(() => decodeCursor("not-a-cursor")).toThrow(/cursor/);
  });
});

describe("parseSince", () => {
  const now = Date.parse("2026-12-03T12:00:00.000Z");
  it("takes spans back from now and ISO dates or times", () => {
    expect(parseSince("2d", now)).toBe("2026-12-01T12:00:00.000Z");
    expect(parseSince("30m", now)).toBe("2026-12-03T11:30:00.000Z");
    expect(parseSince("1w", now)).toBe("2026-11-26T12:00:00.000Z");
    expect(parseSince("2026-12-01", now)).toBe("2026-12-01T00:00:00.000Z");
    expect(parseSince("2026-12-01T09:30:00+01:00", now)).toBe("2026-12-01T08:30:00.000Z");
  });
  it("refuses anything else with what to write instead", () => {
    for (const bad of ["yesterday", "2d ago", "2026-13-45", "-1d", ""]) expect(() => parseSince(bad, now), bad).toThrow(/ISO date or time .* or a span back from now/);
  });
});
