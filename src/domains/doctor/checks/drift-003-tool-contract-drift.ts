// DRIFT_003: tools.md out of date with the catalog; RBAC naming unknown tools or unsupported roles;
// catalog, handlers and schemas disagreeing.
import fs from "node:fs";
import type { DoctorCheck, FindingDraft } from "../check-types.js";
import { loadCatalog } from "../../../catalog/catalog.js";
import { rbacProblems } from "../../../catalog/catalog-check.js";
import { toolsDocText } from "../../../catalog/tools-doc-file.js";

export const check: DoctorCheck = {
  id: "DRIFT_003_TOOL_CONTRACT_DRIFT",
  severity: "warning",
  title: "tool surface, docs and RBAC agree",
  remediation: "run `aop tools --write-docs` to regenerate tools.md",
  async run(ctx) {
    const findings: FindingDraft[] = [];
    const ref = ctx.layout.relative(ctx.layout.toolsDoc);
    let doc: string | null = null;
    try {
      doc = fs.readFileSync(ctx.layout.toolsDoc, "utf8");
    } catch {
      doc = null; // no tools.md: nothing to be stale
    }
    if (doc !== null && doc !== toolsDocText()) findings.push({ message: `${ref} is out of date with the tool catalog`, refs: [ref] });
    if (ctx.policyProblems.length === 0) {
      for (const p of rbacProblems(ctx.policy, loadCatalog().tools)) {
        findings.push({ message: `${p.file}: ${p.path} ${p.message}`, remediation: p.hint ?? "fix the rbac section of policy.yaml", refs: ["agentic/orchestrator/policy.yaml"] });
      }
    }
    for (const problem of (await ctx.selfCheck?.()) ?? []) {
      findings.push({ message: `tool catalog: ${problem}`, remediation: "reinstall aop-continuity (the package's catalog, handlers and schemas disagree)", refs: ["catalog.json"] });
    }
    return { findings, okMessage: "tool surface, tools.md and RBAC agree" };
  },
};
