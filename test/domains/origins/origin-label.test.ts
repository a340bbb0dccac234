// The pure parts of reading pulled workspaces: origin.json's checks and the labels `--origin` takes.
import { describe, expect, it } from "vitest";
import { originLabels, originsMatching, parseOriginRecord, sanitizeLabel, selectOrigin, splitRunRef } from "../../../src/domains/origins/index.js";
import type { Origin } from "../../../src/domains/origins/index.js";

const RECORD = { version: 1, remote: "origin", workspace_id: "a".repeat(32), display_name: "alice@laptop", commit: "b".repeat(40), committed_at: "2026-12-01T10:00:00.000Z", pulled_at: "2026-12-01T10:05:00Z" };

describe("origin.json", () => {
  it("accepts the interface's record", () => {
    expect(parseOriginRecord(JSON.stringify(RECORD))).toEqual(RECORD);
  });
  it.each([
    [{ ...RECORD, version: 2 }, "version must be 1"],
    [{ ...RECORD, workspace_id: "../../x" }, "workspace_id must be 32 lowercase hex characters"],
    [{ ...RECORD, remote: "../up" }, "remote must be a git remote name"],
    [{ ...RECORD, display_name: "" }, "display_name must be 1-200 characters without control characters"],
    [{ ...RECORD, display_name: "x\u001b[2J" }, "display_name must be 1-200 characters without control characters"],
    [{ ...RECORD, commit: "HEAD" }, "commit must be 40 lowercase hex characters"],
    [{ ...RECORD, pulled_at: "yesterday" }, "pulled_at must be an ISO 8601 UTC time"],
    [{ ...RECORD, extra: 1 }, 'has unknown field "extra"'],
    [[], "is not a JSON object"],
  ])("refuses %j", (value, problem) => {
    expect(parseOriginRecord(JSON.stringify(value))).toEqual({ problem });
  });
  it("refuses text that is not JSON", () => {
    expect(parseOriginRecord("{")).toEqual({ problem: "is not JSON" });
  });
});

describe("origin labels", () => {
  it("keep [A-Za-z0-9._@-] of the display name, one '-' for each run of anything else", () => {
    expect(sanitizeLabel("alice@laptop")).toBe("alice@laptop");
    expect(sanitizeLabel("Bob's  Mac / CI")).toBe("Bob-s-Mac-CI");
    expect(sanitizeLabel("<script>alert(1)</script>")).toBe("script-alert-1-script");
  });
  it("add #<8 hex of the id> when two workspaces share a label, or a label would read as `local`", () => {
    const ws = (id: string, name: string) => ({ workspace_id: id.repeat(32), display_name: name });
    expect(originLabels([ws("1", "ci"), ws("2", "ci"), ws("3", "dev box"), ws("4", "local")])).toEqual(["ci#11111111", "ci#22222222", "dev-box", "local#44444444"]);
  });
  it("--origin takes a label, a display name or 8+ hex of the id; an unknown or ambiguous one is an error naming the choices", () => {
    const origins = [
      { ...RECORD, label: "alice@laptop", workspace_id: "a".repeat(32) },
      { ...RECORD, label: "ci#bbbbbbbb", display_name: "ci", workspace_id: "b".repeat(32) },
      { ...RECORD, label: "ci#cccccccc", display_name: "ci", workspace_id: "c".repeat(32), remote: "backup" },
    ] as unknown as Origin[];
    const listing = { origins, warnings: [] };
    expect(selectOrigin(listing, "local")).toBeNull();
    expect(selectOrigin(listing, "alice@laptop")!.workspace_id).toBe("a".repeat(32));
    expect(selectOrigin(listing, "bbbbbbbb")!.label).toBe("ci#bbbbbbbb");
    expect(() => selectOrigin(listing, "ci")).toThrow(/names 2 pulled workspaces: give one of ci#bbbbbbbb, ci#cccccccc/);
    expect(() => selectOrigin(listing, "bob")).toThrow(/no pulled workspace is called 'bob'; pulled: alice@laptop, ci#bbbbbbbb, ci#cccccccc/);
    expect(originsMatching(origins, "ci").map((o) => o.label)).toEqual(["ci#bbbbbbbb", "ci#cccccccc"]);
    expect(originsMatching(origins, "backup").map((o) => o.label)).toEqual(["ci#cccccccc"]);
  });
  it("a run reference splits at its first '/'", () => {
    expect(splitRunRef("alice@laptop/run:abc")).toEqual({ origin: "alice@laptop", runId: "run:abc" });
    expect(splitRunRef("run:abc")).toBeNull();
    expect(splitRunRef("/run:abc")).toBeNull();
  });
});
