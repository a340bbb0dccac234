import { describe, expect, it } from "vitest";
import { checkHeader, parseHeaderFlag, parseHeaderList } from "../../../src/domains/export/export-headers.js";
import { resolveHttpTarget } from "../../../src/domains/export/export-target.js";

const SECRET = "tok-5f2a";

function refusal(fn: () => unknown): Error {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error("not refused");
}

describe("header values HTTP cannot carry are refused up front, naming the header, never the value", () => {
  it.each([
    ["a line feed (a token file of two lines)", `${SECRET}\nsecond-line`],
    ["a carriage return", `${SECRET}\r`],
    ["NUL", `${SECRET}\u0000x`],
    ["another control character", `${SECRET}\u0001`],
    ["DEL", `${SECRET}\u007f`],
  ])("%s", (_what, value) => {
    const err = refusal(() => checkHeader("x-token", value, "OTEL_EXPORTER_OTLP_HEADERS"));
    expect(err).toMatchObject({ code: "usage_error" });
    expect(err.message).toBe("OTEL_EXPORTER_OTLP_HEADERS: header 'x-token' has a value with a line break, NUL or other control character, which HTTP cannot carry (the value is not shown)");
    expect(err.message + String((err as { hint?: string }).hint)).not.toContain(SECRET);
  });

  it("a character beyond Latin-1 is named as such", () => {
    expect(refusal(() => checkHeader("x-token", `${SECRET}€`, "--header")).message).toBe("--header: header 'x-token' has a value with a character beyond U+00FF, which HTTP cannot carry (the value is not shown)");
  });

  it("tabs, spaces and Latin-1 are fine", () => {
    expect(() => checkHeader("authorization", "Bearer a\tb é", "X")).not.toThrow();
  });

  it.each(["connection", "content-length", "host", "transfer-encoding", "upgrade", "keep-alive", "expect"])("the framing header %s cannot be configured", (name) => {
    expect(refusal(() => checkHeader(name, "x", "--header")).message).toBe(`--header: header '${name}' is set by the HTTP connection itself and cannot be configured`);
  });

  it("every source is checked: --header, the OTEL lists (percent-decoded first), the policy's headers_env", () => {
    expect(() => parseHeaderFlag(`x-token=${SECRET}\nmore`)).toThrow("--header: header 'x-token' has a value with a line break");
    expect(() => parseHeaderList(`ok=1,x-token=${SECRET}%00more`, "OTEL_EXPORTER_OTLP_TRACES_HEADERS")).toThrow("OTEL_EXPORTER_OTLP_TRACES_HEADERS: header 'x-token'");
    expect(() => resolveHttpTarget({ endpoint: "http://h:4318" }, { OTEL_EXPORTER_OTLP_HEADERS: `X-Token=${SECRET}\nmore` }, null)).toThrow("OTEL_EXPORTER_OTLP_HEADERS: header 'x-token'");
    const policy = { enabled: true, endpoint: "http://h:4318/v1/traces", protocol: "http/json" as const, headers_env: "LF_HEADERS" };
    expect(() => resolveHttpTarget({}, { LF_HEADERS: `x-token=${SECRET}%0D%0A` }, policy)).toThrow("LF_HEADERS: header 'x-token'");
  });
});
