// Builds small workspaces for the DRIFT_* check tests and runs one check on them.
import fs from "node:fs";
import path from "node:path";
import { fixedClock } from "../../../src/core/clock.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { loadPolicyTolerant } from "../../../src/config/policy-loader.js";
import { createDoctorContext, toFinding, type DoctorCheck, type Finding } from "../../../src/domains/doctor/check-types.js";
import { tempWorkspace } from "../../helpers/tmp.js";
import { toolSurfaceProblems } from "../../../src/app/handler-registry.js";

export const NOW = "2026-06-01T12:00:00.000Z";

export class DriftFixture {
  readonly layout = new WorkspaceLayout(tempWorkspace());

  write(relative: string, contents: string | object): this {
    const file = path.join(this.layout.root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof contents === "string" ? contents : JSON.stringify(contents));
    return this;
  }

  mkdir(relative: string): this {
    fs.mkdirSync(path.join(this.layout.root, relative), { recursive: true });
    return this;
  }

  index(lists: { active?: string[]; blocked?: string[]; merged?: string[] }): this {
    return this.write(".aop/features/index.json", { version: 1, active: [], blocked: [], merged: [], updated_at: NOW, ...lists });
  }

  state(featureId: string, status = "active"): this {
    return this.write(`.aop/features/${featureId}/state.md`, `---\nfeature_id: ${featureId}\ntitle: ""\nstatus: ${status}\nversion: 1\ncreated_at: ${NOW}\nupdated_at: ${NOW}\ngates: {}\n---\n# ${featureId}\n`);
  }

  lease(instance: string, lease: Record<string, unknown>): this {
    return this.write(`.aop/runtime/${instance}/run-lease.json`, { run_id: "run:1", owner: "o", acquired_at: NOW, heartbeat_at: NOW, ttl_seconds: 60, released_at: null, sessions: {}, ...lease });
  }

  timeline(runId: string, lines: (object | string)[]): this {
    return this.write(`.aop/runtime/replay/${runId}.timeline.jsonl`, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  }

  async run(check: DoctorCheck): Promise<Finding[]> {
    const { policy, problems } = await loadPolicyTolerant(this.layout);
    const ctx = createDoctorContext({ layout: this.layout, clock: fixedClock(NOW), policy, policyProblems: problems, env: {}, homeDir: this.layout.root, selfCheck: toolSurfaceProblems });
    const result = await check.run(ctx);
    return result.findings.map((d) => toFinding(check, d));
  }
}

export function entry(sequence: number, extra: object = {}): object {
  return { ts: NOW, sequence, run_id: "r", session_id: null, actor_type: "orchestrator", feature_id: null, tool_name: "feature.get", mutating: false, operation_id: null, idempotency_status: "none", request_hash: null, result: "ok", error_code: null, latency_ms: 1, ...extra };
}
