import { check } from "../../../../src/domains/doctor/checks/drift-008-index-state-inconsistency.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { DRIFT_CASES } from "../drift-fixtures.js";

const OK = "feature index and state agree";

testCheck(check, {
  ...DRIFT_CASES,
  valid: [
    { name: "no index", workspace: (f) => f, ok: OK },
    { name: "a consistent index", workspace: (f) => f.index({ active: ["a"], merged: ["b"] }).state("a").state("b", "merged"), ok: OK },
    {
      name: "the upstream orchestrator's state.md (its own statuses; it keeps a blocked feature in active)",
      workspace: (f) => f.upstreamIndex({ active: ["hello"] }).write(".aop/features/hello/state.md", "---\nfeature_id: hello\nversion: 13\nbranch: hello\nstatus: blocked\ngate_profile: default\nlast_updated: 2026-06-01T11:00:00.000Z\n---\n## Activity\n"),
      ok: OK,
    },
  ],
  invalid: [
    { name: "a feature in two lists", workspace: (f) => f.index({ active: ["a"], blocked: ["a"] }).state("a"), findings: [{ message: /feature a is listed 2 times \(active, blocked\)/ }] },
    { name: "a feature without state.md", workspace: (f) => f.index({ active: ["ghost"] }), findings: [{ message: /feature ghost is in the index but \.aop\/features\/ghost\/state\.md does not exist/ }] },
    { name: "an unparseable index", workspace: (f) => f.write(".aop/features/index.json", "{"), findings: [{ message: /index\.json is not valid JSON/ }] },
    { name: "a status that disagrees with state.md (a set-status killed between its writes)", workspace: (f) => f.index({ active: ["a"] }).state("a", "blocked"), findings: [{ message: /^feature a is listed as active in the index but \.aop\/features\/a\/state\.md says blocked$/ }] },
    { name: "a traversal id in the index", workspace: (f) => f.index({ active: ["../../etc"] }), findings: [{ message: /invalid feature id '\.\.\/\.\.\/etc'/ }] },
  ],
});
