import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parseLogRefs, stepLogRefs } from "../../../src/domains/evidence/step-log-refs.js";

const bytes = (text: string) => Buffer.from(text);

const stepResult = fc.record({
  name: fc.string(),
  cmd: fc.array(fc.string({ unit: "grapheme" }), { maxLength: 4 }),
  exit_code: fc.option(fc.integer()),
  timed_out: fc.boolean(),
  attempts: fc.nat(),
  skipped: fc.boolean(),
  skip_reason: fc.option(fc.string({ unit: "grapheme" })),
  started_at: fc.option(fc.string()),
  finished_at: fc.option(fc.string()),
  log_path: fc.option(fc.string({ unit: "grapheme" })),
  log_sha256: fc.option(fc.string()),
});

describe("stepLogRefs", () => {
  it("agrees with a full JSON.parse for any evidence, pretty or compact (property)", () => {
    fc.assert(
      fc.property(fc.array(stepResult, { maxLength: 6 }), fc.boolean(), (steps, pretty) => {
        const text = JSON.stringify({ feature_id: "f", mode: "m", overall: "pass", step_results: steps }, null, pretty ? 2 : undefined);
        expect(stepLogRefs(bytes(text))).toEqual(parseLogRefs(text));
      }),
      { numRuns: 500 },
    );
  });

  it("is not fooled by the key's text inside string values", () => {
    const steps = [{ name: 'x"log_path": "/etc/passwd', cmd: ['"log_sha256": "sha256:00"'], log_path: "logs/real.log", log_sha256: "sha256:aa" }];
    const text = JSON.stringify({ step_results: steps }, null, 2);
    expect(stepLogRefs(bytes(text))).toEqual([{ log_path: "logs/real.log", log_sha256: "sha256:aa" }]);
  });

  it("falls back to parsing for another key order, escapes, or keys with quotes in them", () => {
    const reordered = '{"step_results":[{"log_sha256":"sha256:1","log_path":"a.log"},{"log_sha256":"sha256:2","log_path":"b.log"}]}';
    expect(stepLogRefs(bytes(reordered))).toEqual([{ log_path: "a.log", log_sha256: "sha256:1" }, { log_path: "b.log", log_sha256: "sha256:2" }]);
    const escaped = JSON.stringify({ step_results: [{ log_path: 'we"ird\\path.log', log_sha256: "sha256:3" }] });
    expect(stepLogRefs(bytes(escaped))).toEqual([{ log_path: 'we"ird\\path.log', log_sha256: "sha256:3" }]);
    const quotedKey = JSON.stringify({ step_results: [], 'x"log_path': "decoy" });
    expect(stepLogRefs(bytes(quotedKey))).toEqual([]);
  });

  it("lists nothing for evidence without logs or for non-JSON bytes", () => {
    expect(stepLogRefs(bytes('{"step_results":[{"log_path":null,"log_sha256":null}]}'))).toEqual([]);
    expect(stepLogRefs(bytes("\u0000\u0001binary"))).toEqual([]);
  });
});
