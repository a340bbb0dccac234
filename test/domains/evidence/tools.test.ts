// The gates and evidence tool handlers called directly with a hand-built ToolContext, and their catalog
// entries. evidence.verify_chain is served by the attest domain (it checks attestations and anchors too).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { handlers as gateHandlers } from "../../../src/domains/gates/tools.js";
import { handlers as evidenceHandlers } from "../../../src/domains/evidence/tools.js";
import { handlers as attestHandlers } from "../../../src/domains/attest/tools.js";
import { validateAgainst, loadValidator } from "../../../src/catalog/load-validator.js";
import type { ToolContext, CatalogEntry, ToolHandlers, ToolName } from "../../../src/catalog/tool-types.js";
import { pipelineHandler } from "../../../src/app/pipeline-handler.js";
import type { Policy } from "../../../src/config/policy-types.js";
import { gateWorkspace, gatesYaml, nodeStep, policyWith, type GateWorkspace } from "../../helpers/gates.js";
import { REPO_ROOT } from "../../helpers/paths.js";
import { loadCatalog } from "../../../src/catalog/catalog.js";

const handlers: ToolHandlers = { ...gateHandlers, ...evidenceHandlers, ...attestHandlers };
const MUTATING = new Set(["gates.run", "evidence.attest", "evidence.anchor", "evidence.reset_chain"]);
const catalog: CatalogEntry[] = loadCatalog().tools.filter((t) => t.name in handlers);

function ctx(ws: GateWorkspace, policy: Policy, tool: string, warnings: string[] = []): ToolContext {
  return { layout: ws.layout, clock: ws.clock, policy, tool_name: tool, call: { run_id: "run-1", session_id: null, actor_type: "qa" }, operation_id: MUTATING.has(tool) ? "op-12345678" : null, warn: (m) => warnings.push(m) };
}

async function call(ws: GateWorkspace, tool: string, args: unknown, policy = policyWith(true)) {
  // Mutating tools take their idempotency key as an argument (the pipeline checks it).
  const withKey = MUTATING.has(tool) ? { ...(args as object), operation_id: "op-tools-test-1" } : args;
  expect(await validateAgainst(`input/${tool}`, withKey)).toEqual([]);
  const data = await pipelineHandler(handlers[tool as ToolName]!)(args as Record<string, unknown>, ctx(ws, policy, tool));
  expect(await validateAgainst(`output/${tool}`, data), JSON.stringify(data)).toEqual([]);
  return data as Record<string, unknown>;
}

describe("evidence and gates tools", () => {
  it("gates.run → evidence.latest → evidence.verify_chain, each output valid against its schema", async () => {
    const ws = await gateWorkspace({ gates: gatesYaml({ fast: [nodeStep("ok", "console.log('fine')")] }) });
    const run = await call(ws, "gates.run", { feature_id: "feat_a", mode: "fast" });
    expect(run).toMatchObject({ overall: "pass", chain: { sequence: 0 } });
    const latest = await call(ws, "evidence.latest", { feature_id: "feat_a" });
    expect(latest.evidence_path).toBe(run.evidence_path);
    const verified = await call(ws, "evidence.verify_chain", { feature_id: "feat_a" });
    expect(verified).toMatchObject({ feature_id: "feat_a", valid: true, entry_count: 1 });
  });

  it("an invalid chain is an error with the verifier's code, whose details carry the whole verify report", async () => {
    const ws = await gateWorkspace({ gates: gatesYaml({ fast: [nodeStep("ok", "")] }) });
    const run = await call(ws, "gates.run", { feature_id: "feat_a", mode: "fast" });
    fs.appendFileSync(path.join(ws.root, run.evidence_path as string), "x");
    const verify = pipelineHandler(handlers["evidence.verify_chain"]!)({ feature_id: "feat_a" }, ctx(ws, policyWith(true), "evidence.verify_chain"));
    await expect(verify).rejects.toMatchObject({
      code: "evidence_chain_hash_mismatch",
      details: { feature_id: "feat_a", valid: false, first_failure_sequence: 0, failure_code: "evidence_chain_hash_mismatch", artifact_rel_path: run.evidence_path },
    });
    const { details } = (await verify.catch((e: unknown) => e)) as { details: Record<string, unknown> };
    expect(await validateAgainst("output/evidence.verify_chain", details)).toEqual([]);
  });

  it("a failed gate is the error gate_failed, whose details carry the run report and the failing steps", async () => {
    const ws = await gateWorkspace({ gates: gatesYaml({ fast: [nodeStep("ok", ""), nodeStep("broken", "process.exit(3)")] }) });
    const run = pipelineHandler(handlers["gates.run"]!)({ feature_id: "feat_a", mode: "fast" }, ctx(ws, policyWith(true), "gates.run"));
    await expect(run).rejects.toMatchObject({ code: "gate_failed", details: { overall: "fail", failed_steps: ["broken"], chain: { sequence: 0 } } });
    const { details } = (await run.catch((e: unknown) => e)) as { details: Record<string, unknown> };
    expect(fs.existsSync(path.join(ws.root, details.evidence_path as string))).toBe(true);
    const { failed_steps: _failed, ...report } = details;
    expect(await validateAgainst("output/gates.run", report)).toEqual([]);
  });

  it("a chain missing while integrity is off says so in its hint", async () => {
    const ws = await gateWorkspace({ gates: gatesYaml({ fast: [nodeStep("ok", "")] }) });
    await pipelineHandler(handlers["gates.run"]!)({ feature_id: "feat_a", mode: "fast" }, ctx(ws, policyWith(false), "gates.run"));
    const verify = pipelineHandler(handlers["evidence.verify_chain"]!)({ feature_id: "feat_a" }, ctx(ws, policyWith(false), "evidence.verify_chain"));
    await expect(verify).rejects.toMatchObject({ code: "evidence_chain_missing", hint: expect.stringMatching(/evidence integrity is off/) });
  });

  it("input schemas refuse unknown fields and wrong types", async () => {
    expect(await validateAgainst("input/gates.run", { feature_id: "f" })).not.toEqual([]);
    expect(await validateAgainst("input/gates.run", { feature_id: "f", mode: "fast", shell: "rm -rf /" })).not.toEqual([]);
    expect(await validateAgainst("input/evidence.verify_chain", { feature_id: 7 })).not.toEqual([]);
    expect(await validateAgainst("input/evidence.latest", { feature_id: "x".repeat(500) })).not.toEqual([]);
  });

  it("handlers throw coded errors for unknown features", async () => {
    const ws = await gateWorkspace();
    for (const tool of ["gates.run", "evidence.latest", "evidence.verify_chain", "evidence.prove"]) {
      await expect(pipelineHandler(handlers[tool as ToolName]!)({ feature_id: "ghost", mode: "fast", sequence: 0 }, ctx(ws, policyWith(false), tool))).rejects.toMatchObject({ code: "feature_not_found" });
    }
  });

  it("every handler has one catalog entry with compiling schemas, and every entry a handler", async () => {
    expect(catalog.map((e) => e.name).sort()).toEqual(Object.keys(handlers).sort());
    for (const entry of catalog) {
      expect(entry.mutating).toBe(MUTATING.has(entry.name));
      expect(entry.requires_operation_id).toBe(entry.mutating);
      expect(entry.input_schema_ref).toBe(`schemas/input/${entry.name}.json`);
      expect(entry.output_schema_ref).toBe(`schemas/output/${entry.name}.json`);
      for (const ref of [entry.input_schema_ref, entry.output_schema_ref]) {
        expect(fs.existsSync(path.join(REPO_ROOT, ref)), ref).toBe(true);
        await expect(loadValidator(ref.replace(/^schemas\//, "").replace(/\.json$/, ""))).resolves.toBeTypeOf("function");
      }
      for (const role of entry.supported_roles) expect(["orchestrator", "planner", "builder", "qa", "system"]).toContain(role);
    }
  });
});
