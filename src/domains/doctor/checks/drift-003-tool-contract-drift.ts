// DRIFT_003: tools.md out of date with the catalog; RBAC naming unknown tools or unsupported roles;
// catalog, handlers and schemas disagreeing.
import type { DoctorCheck, FindingDraft } from "../check-types.js";
import { readBytesBounded, refusalProblem } from "../../../store/read-text-bounded.js";
import { READ_LIMITS } from "../../../store/read-limits.js";
import { loadCatalog } from "../../../catalog/catalog.js";
import { rbacProblems } from "../../../catalog/catalog-check.js";
import { toolsDocText } from "../../../catalog/tools-doc-file.js";

/** The first line of the tools.md the upstream orchestrator (agentic-orchestrator) generates. */
const UPSTREAM_TOOLS_DOC = "# AOP MCP Tool Surface\n";

export const check: DoctorCheck = {
  id: "DRIFT_003_TOOL_CONTRACT_DRIFT",
  severity: "warning",
  title: "tool surface, docs and RBAC agree",
  remediation: "run `aop tools --write-docs` to regenerate tools.md",
  async run(ctx) {
    const findings: FindingDraft[] = [];
    const ref = ctx.layout.relative(ctx.layout.toolsDoc);
    const read = readBytesBounded(ctx.layout.toolsDoc, READ_LIMITS.config);
    // No tools.md: nothing to be stale.
    const doc = read.status === "ok" ? read.bytes.toString("utf8") : null;
    if (read.status !== "ok" && read.status !== "missing") findings.push({ message: `${ref} ${refusalProblem(read)}`, refs: [ref] });
    if (doc !== null && doc.startsWith(UPSTREAM_TOOLS_DOC)) {
      findings.push({
        severity: "info",
        message: `${ref} lists the upstream orchestrator's tools (it rewrites the file on every start), not aop's`,
        remediation: "leave the file to the upstream orchestrator (it writes its list back on its next start); `aop tools` lists aop's tools",
        refs: [ref],
      });
    } else if (doc !== null && doc !== toolsDocText()) findings.push({ message: `${ref} is out of date with the tool catalog`, refs: [ref] });
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
