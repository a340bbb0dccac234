import { describe, expect, it } from "vitest";
import { AopError, envelopeFromError, ERROR_CODES, isErrorCode } from "../../src/core/errors.js";

describe("error envelope", () => {
  it("carries code, message and details of an AopError", () => {
    const env = envelopeFromError(new AopError("feature_not_found", "feature x does not exist", { details: { feature_id: "x" } }));
    expect(env).toEqual({ ok: false, error: { code: "feature_not_found", message: "feature x does not exist", details: { feature_id: "x" } } });
  });

  it("turns unexpected errors into internal_error", () => {
    const env = envelopeFromError(new TypeError("boom"));
    expect(env).toEqual({ ok: false, error: { code: "internal_error", message: "boom", details: {} } });
  });

  it("has unique codes in snake_case", () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(isErrorCode("unknown_tool")).toBe(true);
    expect(isErrorCode("nope")).toBe(false);
  });
});
