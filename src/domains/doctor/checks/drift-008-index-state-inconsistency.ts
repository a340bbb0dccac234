// DRIFT_008: the feature index lists a feature twice, names a feature without state, lists it under another
// status than its state.md says (a feature call interrupted between its two writes), or is unreadable.
import fs from "node:fs";
import type { DoctorCheck, FindingDraft } from "../check-types.js";
import { FEATURE_STATUSES } from "../../features/index.js";
import { idProblem } from "../../../core/ids.js";
import { readFeatureIndex } from "../workspace-reads.js";
import { readTextBounded } from "../../../store/read-text-bounded.js";

// The front matter sits at the top; aop writes `status: <value>` on a line of its own.
const FRONT_MATTER_BYTES = 64 * 1024;
const STATUS_LINE = /^---\r?\n(?:[^\n]*\n)*?status: ["']?([a-z]+)["']?\r?\n/;
// A state.md the upstream orchestrator wrote (its own keys): its statuses (intake, planning, building,
// qa, blocked, awaiting_input, …) are not the index's lists, and it keeps a feature in `active` while
// it is blocked, so its status is not compared with the index (docs/compatibility.md).
const UPSTREAM_STATE = /^(?:gate_profile|role_status|last_updated):/m;

export const check: DoctorCheck = {
  id: "DRIFT_008_INDEX_STATE_INCONSISTENCY",
  severity: "critical",
  title: "feature index and state agree",
  remediation: "edit .aop/features/index.json so each feature is listed once and has .aop/features/<id>/state.md",
  run(ctx) {
    const index = readFeatureIndex(ctx);
    const ref = ctx.layout.relative(ctx.layout.featuresIndex);
    if (index.problem) return { findings: [{ message: `${ref} ${index.problem}`, refs: [ref] }] };
    const findings: FindingDraft[] = [];
    const seen = new Map<string, string[]>();
    for (const status of FEATURE_STATUSES) for (const id of index.lists[status]) seen.set(id, [...(seen.get(id) ?? []), status]);
    for (const [id, statuses] of seen) {
      if (statuses.length > 1) findings.push({ message: `feature ${id} is listed ${statuses.length} times (${statuses.join(", ")})`, refs: [ref] });
      const problem = idProblem(id);
      if (problem) {
        findings.push({ message: `the index names an invalid feature id '${id.slice(0, 60)}' (${problem})`, refs: [ref] });
        continue;
      }
      const state = ctx.layout.featureState(id);
      if (!fs.existsSync(state)) {
        findings.push({ message: `feature ${id} is in the index but ${ctx.layout.relative(state)} does not exist`, refs: [ref, ctx.layout.relative(state)] });
        continue;
      }
      const read = readTextBounded(state, FRONT_MATTER_BYTES);
      const stateStatus = read.status === "ok" && !UPSTREAM_STATE.test(read.text) ? STATUS_LINE.exec(read.text)?.[1] : undefined;
      if (statuses.length === 1 && stateStatus !== undefined && stateStatus !== statuses[0]) {
        findings.push({
          message: `feature ${id} is listed as ${statuses[0]} in the index but ${ctx.layout.relative(state)} says ${stateStatus}`,
          remediation: `set the status you mean once more (\`aop feature set-status ${id} <status>\` with a new operation id): it rewrites both`,
          refs: [ref, ctx.layout.relative(state)],
        });
      }
    }
    return { findings, okMessage: "feature index and state agree" };
  },
};
