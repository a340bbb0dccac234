import { describe, expect, it } from "vitest";
import { parseHeaderList, redactUrl, resolveHttpTarget, type OtlpPolicy } from "../../../src/domains/export/export-target.js";
import { backoffMs, isRetryableStatus, retryAfterMs } from "../../../src/domains/export/otlp-http.js";

const policy = (extra: Partial<OtlpPolicy> = {}): OtlpPolicy => ({ enabled: true, endpoint: "https://cloud.langfuse.com/api/public/otel/v1/traces", protocol: "http/json", headers_env: "LF_HEADERS", ...extra });

describe("where an export goes", () => {
  it.each([
    [{ endpoint: "http://localhost:4318" }, {}, "http://localhost:4318/v1/traces", "--endpoint"],
    [{ endpoint: "http://collector:4318/custom/path" }, {}, "http://collector:4318/custom/path", "--endpoint"],
    [{}, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://a:4318/x" }, "http://a:4318/x", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"],
    [{}, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://b:4318" }, "http://b:4318/v1/traces", "OTEL_EXPORTER_OTLP_ENDPOINT"],
    [{}, { OTEL_EXPORTER_OTLP_ENDPOINT: "https://cloud.langfuse.com/api/public/otel" }, "https://cloud.langfuse.com/api/public/otel/v1/traces", "OTEL_EXPORTER_OTLP_ENDPOINT"],
    [{}, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://b:4318/", OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://t:1/v1/traces" }, "http://t:1/v1/traces", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"],
    [{ endpoint: "http://flag:4318" }, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://env:4318" }, "http://flag:4318/v1/traces", "--endpoint"],
  ])("flags %j, env %j → %s", (flags, env, url, source) => {
    const target = resolveHttpTarget(flags, env, null);
    expect([target.url, target.source]).toEqual([url, source]);
  });

  it("the protocol: --protocol, then OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL, then the policy, then http/protobuf", () => {
    const flags = { endpoint: "http://x:4318" };
    expect(resolveHttpTarget(flags, {}, null).protocol).toBe("http/protobuf");
    expect(resolveHttpTarget(flags, {}, policy()).protocol).toBe("http/json");
    expect(resolveHttpTarget(flags, {}, policy({ enabled: false })).protocol).toBe("http/protobuf");
    expect(resolveHttpTarget(flags, { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" }, null).protocol).toBe("http/json");
    expect(resolveHttpTarget(flags, { OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/protobuf" }, null).protocol).toBe("http/protobuf");
    expect(resolveHttpTarget({ ...flags, protocol: "http/json" }, { OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf" }, null).protocol).toBe("http/json");
    expect(() => resolveHttpTarget(flags, { OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, null)).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL: grpc is not supported/);
  });

  it("the policy is used only when enabled and nothing else names an endpoint; its headers never go elsewhere", () => {
    const env = { LF_HEADERS: "authorization=Basic%20cGs6c2s=" };
    const fromPolicy = resolveHttpTarget({}, env, policy());
    expect(fromPolicy).toMatchObject({ url: policy().endpoint, source: "policy.yaml", headers: { authorization: "Basic cGs6c2s=" } });
    expect(resolveHttpTarget({ endpoint: "http://other:4318" }, env, policy()).headers).toEqual({});
    expect(resolveHttpTarget({}, { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: "http://env:4318" }, policy()).headers).toEqual({});
    expect(() => resolveHttpTarget({}, env, policy({ enabled: false }))).toThrow(/no OTLP endpoint/);
    expect(() => resolveHttpTarget({}, {}, policy())).toThrow(/headers_env names LF_HEADERS, which is not set/);
  });

  it("headers: OTEL_EXPORTER_OTLP_HEADERS, the per-signal variable over it, --header over both; names lower-cased", () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_HEADERS: "A=1,b=%3D2", OTEL_EXPORTER_OTLP_TRACES_HEADERS: "b=3" };
    expect(resolveHttpTarget({ headers: ["C=4=x", "a=5"] }, env, null).headers).toEqual({ a: "5", b: "3", c: "4=x" });
  });

  it.each([
    ["k", "entry 1 is not name=value"],
    ["ok=1,bad name=2", "entry 2 is not name=value"],
    ["k=%E0%A4%A", "not valid percent-encoding"],
  ])("refuses the header list %j and never shows a value", (text, message) => {
    expect(() => parseHeaderList(text, "OTEL_EXPORTER_OTLP_HEADERS")).toThrow(message);
    try {
      parseHeaderList(text, "X");
    } catch (err) {
      expect((err as Error).message).not.toMatch(/=2|%E0/);
    }
  });

  it("refuses timeouts that are not positive numbers", () => {
    expect(resolveHttpTarget({ endpoint: "http://x" }, { OTEL_EXPORTER_OTLP_TIMEOUT: "2500" }, null).timeoutMs).toBe(2500);
    expect(resolveHttpTarget({ endpoint: "http://x" }, {}, null).timeoutMs).toBe(10_000);
    expect(() => resolveHttpTarget({ endpoint: "http://x" }, { OTEL_EXPORTER_OTLP_TIMEOUT: "soon" }, null)).toThrow(/OTEL_EXPORTER_OTLP_TIMEOUT must be a positive number/);
  });

  it("shows URLs without credentials, query or fragment", () => {
    expect(redactUrl("https://user:pw@h:1/v1/traces?api_key=abc#x")).toBe("https://h:1/v1/traces (credentials and query hidden)");
    expect(redactUrl("http://h/v1/traces")).toBe("http://h/v1/traces");
    expect(redactUrl("nope")).toBe("<not a URL>");
  });
});

describe("retries", () => {
  it.each([[429, true], [500, true], [502, true], [503, true], [504, true], [501, false], [400, false], [401, false], [404, false], [413, false]])("status %i retryable: %s", (status, retryable) => {
    expect(isRetryableStatus(status)).toBe(retryable);
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-05-01T10:00:00Z");
    expect(retryAfterMs("0", now)).toBe(0);
    expect(retryAfterMs("7", now)).toBe(7000);
    expect(retryAfterMs("Fri, 01 May 2026 10:00:03 GMT", now)).toBe(3000);
    expect(retryAfterMs("Fri, 01 May 2026 09:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });

  it("backs off 1 s × 1.5ⁿ with ±20% jitter, capped at 5 s", () => {
    expect([1, 2, 3, 4, 5, 9].map((n) => backoffMs(n, () => 0.5))).toEqual([1000, 1500, 2250, 3375, 5000, 5000]);
    expect(backoffMs(1, () => 0)).toBe(800);
    expect(backoffMs(1, () => 1)).toBe(1200);
  });
});
