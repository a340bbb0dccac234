import { describe, expect, it } from "vitest";
import { AopError } from "../../src/core/errors.js";
import { idProblem, validateId } from "../../src/core/ids.js";

describe("validateId", () => {
  const rejected: [string, unknown][] = [
    ["parent traversal", "../x"],
    ["a slash", "a/b"],
    ["a backslash", "a\\b"],
    ["a leading dot", ".hidden"],
    ["empty", ""],
    ["300 characters", "a".repeat(300)],
    ["NUL", "a\u0000b"],
    ["a control character", "a\u0007b"],
    ["a newline", "a\nb"],
    ["an embedded ..", "a..b"],
    ["a space", "a b"],
    ["a number", 42],
    ["null", null],
  ];
  it.each(rejected)("rejects %s with invalid_argument naming the field", (_name, value) => {
    let thrown: unknown;
    try {
      validateId("feature_id", value);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AopError);
    expect((thrown as AopError).code).toBe("invalid_argument");
    expect((thrown as AopError).message).toMatch(/^feature_id /);
  });

  const accepted = ["run:0e4f2b9c-6a1d-4c4e-9f0a-3b2c1d0e9f8a", "feat_a", "oc-app-architect", "claude-1b2c", "v1.2.3", "a@b+c"];
  it.each(accepted)("accepts %s", (value) => {
    expect(validateId("run_id", value)).toBe(value);
    expect(idProblem(value)).toBeNull();
  });
});

describe("one safe-id rule: core/ids.ts and the tool schemas", () => {
  it("isSafeId and idProblem agree, and SAFE_ID_PATTERN is the rule the schemas use", async () => {
    const { isSafeId, SAFE_ID_PATTERN } = await import("../../src/core/ids.js");
    for (const value of ["a", "run:0e4f-2b9c", "user@host+tag", "a.b", "x".repeat(128), "", ".a", "a..b", "a/b", "x".repeat(129), "a b", "é"]) {
      expect(isSafeId(value), value).toBe(idProblem(value) === null);
      expect(new RegExp(SAFE_ID_PATTERN).test(value), value).toBe(idProblem(value) === null);
    }
  });

  it("every id pattern in schemas/ is exactly SAFE_ID_PATTERN", async () => {
    const fs = await import("node:fs");
    const path = await import("node:path");
    const { SAFE_ID_PATTERN } = await import("../../src/core/ids.js");
    const patterns: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === "object") {
        for (const [k, v] of Object.entries(node)) {
          if (k === "pattern" && typeof v === "string" && v.includes("A-Za-z0-9_:@+")) patterns.push(v);
          else walk(v);
        }
      }
    };
    const dir = path.join(import.meta.dirname, "..", "..", "schemas");
    for (const file of fs.readdirSync(dir, { recursive: true }) as string[]) if (file.endsWith(".json")) walk(JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")));
    expect(patterns.length).toBeGreaterThan(10);
    expect(new Set(patterns)).toEqual(new Set([SAFE_ID_PATTERN]));
  });
});
