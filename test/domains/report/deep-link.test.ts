import { describe, expect, it } from "vitest";
import { emptyLink, formatHash, parseHash } from "../../../src/domains/report/deep-link.js";

describe("deep links", () => {
  it("#run=…&seq=… opens the timeline at that entry", () => {
    expect(parseHash("#run=run%3Ademo&seq=42")).toMatchObject({ view: "timeline", run: "run:demo", seq: 42 });
    expect(formatHash({ ...emptyLink(), view: "timeline", run: "run:demo", seq: 42 })).toBe("#run=run%3Ademo&seq=42");
  });

  it("round-trips views, filters and diffed runs", () => {
    const state = { ...emptyLink(), view: "diff" as const, run: "r&1", a: "run:a b", b: "claude-x", filter: { tool: "feature.init", result: "error", idempotency: "replay", feature: "", mutating: "yes", text: "a=b&c" } };
    expect(parseHash(formatHash(state))).toEqual(state);
    const tools = { ...emptyLink(), view: "tools" as const, run: "x" };
    expect(parseHash(formatHash(tools))).toEqual(tools);
  });

  it("ignores what it cannot use", () => {
    expect(parseHash("#view=nope&seq=-1&run=")).toEqual(emptyLink());
    expect(parseHash("#seq=1e3").seq).toBeNull();
    expect(parseHash("").view).toBeNull();
    expect(parseHash("#a=x").view).toBe("diff");
  });
});
