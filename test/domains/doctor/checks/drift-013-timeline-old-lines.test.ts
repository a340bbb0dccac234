import { check } from "../../../../src/domains/doctor/checks/drift-013-timeline-old-lines.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { DRIFT_CASES, NOW } from "../drift-fixtures.js";

const OK = "every timeline line is in the seed's shape";
const RUN = ".aop/runtime/replay/r1.timeline.jsonl";
// The seed's line (DESIGN §4), and as the upstream orchestrator writes it (sequence last).
const seed = (sequence: number, over: object = {}) => JSON.stringify({ ts: NOW, sequence, run_id: "r1", session_id: "s", actor_type: "orchestrator", feature_id: null, tool_name: "feature.list", mutating: false, operation_id: null, idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 3, ...over });
const upstream = (sequence: number) => JSON.stringify({ ts: NOW, run_id: "r1", session_id: "s", actor_type: "orchestrator", feature_id: null, tool_name: "feature.state_get", mutating: false, operation_id: null, idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 20, sequence });
const lines = (...l: string[]) => l.join("\n") + "\n";

testCheck(check, {
  ...DRIFT_CASES,
  valid: [
    { name: "no timelines", workspace: (f) => f, ok: OK },
    { name: "aop's lines and upstream's own (sequence last)", workspace: (f) => f.write(RUN, lines(seed(0), upstream(1))), ok: OK },
    { name: "an unparseable line is DRIFT_006's, not an old shape", workspace: (f) => f.write(RUN, lines(seed(0), "{torn", seed(1))), ok: OK },
  ],
  invalid: [
    {
      name: "extras inside the line, a null session, a fractional latency: each counted",
      workspace: (f) => f.write(RUN, lines(seed(0, { transport: "mcp" }), seed(1, { session_id: null }), seed(2, { latency_ms: 1.5 }), seed(3))),
      findings: [{ message: /^run r1: 3 lines in aop's older shape .*the upstream orchestrator's replay does not$/, refs: [RUN], remediation: /aop migrate/ }],
    },
    {
      name: "a marker line of the old hook",
      workspace: (f) => f.write(RUN, lines(seed(0, { tool_name: "SessionStart", marker: "SessionStart:startup" }))),
      findings: [{ message: /^run r1: 1 line in aop's older shape/ }],
    },
  ],
});
