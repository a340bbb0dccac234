import { describe, expect, it } from "vitest";
import { MAX_TIMEOUT_MS, millisSetting, resolveHttpTarget } from "../../../src/domains/export/export-target.js";

const flags = { endpoint: "http://h:4318" };

describe("OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT: a whole number of milliseconds from 1 to 600000", () => {
  it.each([
    ["1", 1],
    ["2500", 2500],
    [" 2500 ", 2500],
    [String(MAX_TIMEOUT_MS), MAX_TIMEOUT_MS],
  ])("%j → %i", (raw, ms) => {
    expect(millisSetting("OTEL_EXPORTER_OTLP_TIMEOUT", raw, 1, MAX_TIMEOUT_MS)).toBe(ms);
  });

  it.each(["5000000000", "600001", "0", "-1", "2500.5", "1e4", "0x10", "Infinity", "soon", "99999999999999999999"])("%j is refused naming the variable and the range", (raw) => {
    expect(() => millisSetting("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", raw, 1, MAX_TIMEOUT_MS)).toThrow(
      `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT must be a positive number of milliseconds: a whole number from 1 to 600000 (got '${raw.slice(0, 40)}')`,
    );
  });

  it("the per-signal variable wins; each is checked when it is the one used; empty means unset", () => {
    expect(resolveHttpTarget(flags, { OTEL_EXPORTER_OTLP_TIMEOUT: "5000000000", OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "3000" }, null).timeoutMs).toBe(3000);
    expect(() => resolveHttpTarget(flags, { OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "5000000000" }, null)).toThrow(/^OTEL_EXPORTER_OTLP_TRACES_TIMEOUT must be/);
    expect(() => resolveHttpTarget(flags, { OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "", OTEL_EXPORTER_OTLP_TIMEOUT: "5000000000" }, null)).toThrow(/^OTEL_EXPORTER_OTLP_TIMEOUT must be/);
    expect(resolveHttpTarget(flags, { OTEL_EXPORTER_OTLP_TIMEOUT: "" }, null).timeoutMs).toBe(10_000);
  });
});
