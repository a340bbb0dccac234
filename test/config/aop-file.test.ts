// agentic/orchestrator/aop.yaml: aop's own policy keys, kept where the upstream orchestrator never looks
// (docs/compatibility.md). Merged over policy.yaml by the one loader; only aop's keys are allowed in it.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { tempWorkspace, writeFile, readJson } from "../helpers/tmp.js";
import { WorkspaceLayout } from "../../src/store/layout.js";
import { loadPolicy, loadPolicyTolerant, policyDefaults } from "../../src/config/policy-loader.js";
import { loadPolicySnapshot } from "../../src/config/policy-snapshot.js";
import { AOP_TEMPLATE } from "../../src/config/templates.js";
import { AOP_ONLY_POLICY_KEYS } from "../../src/config/upstream-shape.js";
import { aopFileSchema, relaxForUserFile } from "../../scripts/generate.mjs";

function workspace(files: { policy?: string; aop?: string }): WorkspaceLayout {
  const root = tempWorkspace();
  if (files.policy !== undefined) writeFile(root, "agentic/orchestrator/policy.yaml", files.policy);
  if (files.aop !== undefined) writeFile(root, "agentic/orchestrator/aop.yaml", files.aop);
  fs.mkdirSync(`${root}/.aop/runtime`, { recursive: true });
  return new WorkspaceLayout(root);
}

const AOP_FILE = "version: 1\nobservability:\n  evidence_integrity:\n    attest: true\nhooks:\n  claude:\n    stop_reminder: block\nidempotency:\n  retention:\n    max_records: 500\n";

describe("aop.yaml", () => {
  it("its schema allows exactly the aop-only keys the doctor and `aop migrate` use, each as the policy schema has it", () => {
    type Node = { properties?: Record<string, Node> };
    const policy = readJson(new URL("../../schemas/config/policy.schema.json", import.meta.url).pathname) as Node;
    const schema = aopFileSchema(relaxForUserFile(policy)) as Node;
    const at = (node: Node, dotted: string) => dotted.split(".").reduce<Node | undefined>((n, part) => n?.properties?.[part], node);
    for (const key of AOP_ONLY_POLICY_KEYS) expect(at(schema, key), key).toEqual(at(relaxForUserFile(policy) as Node, key));
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual(["version", ...new Set(AOP_ONLY_POLICY_KEYS.map((k) => k.split(".")[0]!))].sort());
    expect(Object.keys(at(schema, "observability.evidence_integrity")?.properties ?? {}).sort()).toEqual(
      AOP_ONLY_POLICY_KEYS.filter((k) => k.startsWith("observability.evidence_integrity.")).map((k) => k.split(".")[2]).sort(),
    );
  });

  it("is merged over policy.yaml, alone or with it; the init template adds nothing", async () => {
    const alone = await loadPolicyTolerant(workspace({ aop: AOP_FILE }));
    expect(alone.problems).toEqual([]);
    expect([alone.userFileExists, alone.aopFileExists]).toEqual([false, true]);
    expect(alone.policy.observability.evidence_integrity.attest).toBe(true);
    expect(alone.policy.observability.evidence_integrity.enabled).toBe(false);
    expect(alone.policy.hooks.claude.stop_reminder).toBe("block");
    expect(alone.policy.idempotency.retention).toEqual({ ...policyDefaults().idempotency.retention, max_records: 500 });
    const both = await loadPolicy(workspace({ policy: "version: 1\nobservability:\n  evidence_integrity:\n    enabled: true\n", aop: AOP_FILE }));
    expect(both.observability.evidence_integrity).toMatchObject({ enabled: true, attest: true });
    const template = await loadPolicyTolerant(workspace({ aop: AOP_TEMPLATE }));
    expect(template.problems).toEqual([]);
    expect(template.policy).toEqual(policyDefaults());
  });

  it("wins over an older policy.yaml that still sets the same key (which is still read where aop.yaml is silent)", async () => {
    const policy = await loadPolicy(workspace({ policy: "version: 1\nhooks:\n  claude:\n    stop_reminder: off\ncheckpoints:\n  stale_days:\n    blocked: 1\n", aop: "hooks:\n  claude:\n    stop_reminder: block\n" }));
    expect(policy.hooks.claude.stop_reminder).toBe("block");
    expect(policy.checkpoints.stale_days.blocked).toBe(1);
  });

  it("refuses a key of policy.yaml's own, by name and with where it belongs, and keeps the rest of both files", async () => {
    const result = await loadPolicyTolerant(workspace({ policy: "locks:\n  lease_ttl_seconds: 60\n", aop: "locks:\n  lease_ttl_seconds: 30\nhooks:\n  claude:\n    stop_reminder: block\n" }));
    expect(result.problems).toEqual([
      { file: "agentic/orchestrator/aop.yaml", path: "locks", message: expect.stringMatching(/^is not a known key \(allowed: version, observability, idempotency, checkpoints, hooks\)/), hint: "aop.yaml holds only aop's own keys; every other policy key belongs in policy.yaml" },
    ]);
    expect(result.policy.hooks.claude.stop_reminder).toBe("block");
    expect(result.policy.locks.lease_ttl_seconds).toBe(policyDefaults().locks.lease_ttl_seconds);
    const nested = await loadPolicyTolerant(workspace({ aop: "observability:\n  replay:\n    enabled: false\n" }));
    expect(nested.problems.map((p) => [p.file, p.path])).toEqual([["agentic/orchestrator/aop.yaml", "observability.replay"]]);
    await expect(loadPolicy(workspace({ aop: "hooks:\n  claude:\n    stop_reminder: sometimes\n" }))).rejects.toMatchObject({ code: "config_invalid", message: expect.stringContaining("agentic/orchestrator/aop.yaml: hooks.claude.stop_reminder") });
  });

  it("an unreadable aop.yaml is a problem of its own; policy.yaml still applies", async () => {
    const result = await loadPolicyTolerant(workspace({ policy: "locks:\n  lease_ttl_seconds: 60\n", aop: "a: [unclosed\n" }));
    expect(result.problems.map((p) => p.file)).toEqual(["agentic/orchestrator/aop.yaml"]);
    expect(result.policy.locks.lease_ttl_seconds).toBe(60);
  });

  it("the policy snapshot is keyed by both files: an edit of aop.yaml, or its removal, is seen at once", async () => {
    const layout = workspace({ policy: "version: 1\n", aop: AOP_FILE });
    expect((await loadPolicySnapshot(layout)).policy.hooks.claude.stop_reminder).toBe("block");
    expect(readJson<{ aop_source: string | null }>(layout.policySnapshotFile).aop_source).toBe(AOP_FILE);
    expect((await loadPolicySnapshot(layout)).policy.hooks.claude.stop_reminder).toBe("block");
    fs.writeFileSync(layout.aopConfigFile, AOP_FILE.replace("block", "off  "));
    expect((await loadPolicySnapshot(layout)).policy.hooks.claude.stop_reminder).toBe("off");
    fs.rmSync(layout.aopConfigFile);
    expect((await loadPolicySnapshot(layout)).policy.hooks.claude.stop_reminder).toBe("message");
    expect(readJson<{ aop_source: string | null }>(layout.policySnapshotFile).aop_source).toBeNull();
    // aop.yaml alone (no policy.yaml) is loaded too, and kept.
    const alone = workspace({ aop: AOP_FILE });
    expect(await loadPolicySnapshot(alone)).toEqual(await loadPolicyTolerant(alone));
    expect(readJson<{ source: string | null }>(alone.policySnapshotFile).source).toBeNull();
  });
});
