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
