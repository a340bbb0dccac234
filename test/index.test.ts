// The built entry (dist/index.js, the package's only export) exports exactly the surface src/index.ts
// lists: the same values at run time and the same names, values and types, in its declarations.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type * as Library from "../src/index.js";
import { DIST, REPO_ROOT } from "./helpers/paths.js";
import { tempWorkspace } from "./helpers/tmp.js";

const VALUES = [
  "AopError", "CanonicalJsonError", "ERROR_CODES", "GENESIS_HASH", "ToolRuntime", "WorkspaceLayout", "acquireLock", "appendJsonLine", "buildResumeBlock",
  "canonicalJson", "computeChainHash", "createRuntime", "envelopeFromError", "errorEnvelope", "findLatestEvidence", "findWorkspaceRoot", "fixedClock",
  "hashCanonical", "idProblem", "inProcessClient", "inclusionProof", "isHashString", "isIsoUtc", "isSafeId", "isoUtc", "leafHash", "loadCatalog", "loadCheckpointValidator", "loadGates",
  "loadGatesTolerant", "loadPolicy", "loadPolicyTolerant", "mcpClient", "mcpToolName", "merkleRoot", "normalizeHash", "okEnvelope", "pickNext", "policyDefaults", "preAuthEncoding",
  "rankCheckpoints", "readJsonl", "rootFromInclusionProof", "runGate", "sha256Of", "systemClock", "validateId", "verifyAllChains", "verifyChain", "verifyFeatureChain", "verifyInclusion",
  "withLock", "writeFileAtomic",
];
const TYPES = [
  "CallResult", "CatalogEntry", "ChainEntry", "ChainVerifyReport", "Checkpoint", "CheckpointProblem", "ClientCallResult", "Clock", "ConfigProblem", "Envelope",
  "ErrorBody", "ErrorCode", "EvidenceVerifyReport", "FileReport", "GateEvidence", "GateRunReport", "GateStep", "GatesConfig", "IdentityOverrides", "McpClientOptions", "McpToolClient",
  "Policy", "ResumeBlock", "Role", "RunGateInput", "RuntimeSetup", "StepResult", "ToolArgs", "ToolClient", "ToolContext", "ToolHandler", "ToolName", "ToolResult",
];

const ENTRY = path.join(DIST, "index.js");

function declaredExports(): string[] {
  const file = path.join(DIST, "index.d.ts");
  const program = ts.createProgram([file], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  return checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).map((s) => s.name);
}

describe("the library surface", () => {
  it("package.json exports the built entry and nothing deeper", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { exports: Record<string, string>; main: string; types: string };
    expect(pkg.exports).toEqual({ ".": "./dist/index.js", "./package.json": "./package.json" });
    expect([pkg.main, pkg.types]).toEqual(["dist/index.js", "dist/index.d.ts"]);
  });

  it("dist/index.js exports exactly the listed values", async () => {
    const entry = (await import(pathToFileURL(ENTRY).href)) as Record<string, unknown>;
    expect(Object.keys(entry).sort()).toEqual([...VALUES].sort());
    expect("default" in entry).toBe(false);
  });

  it("dist/index.d.ts declares exactly the listed values and types", () => {
    expect(declaredExports().sort()).toEqual([...VALUES, ...TYPES].sort());
  });

  it("src/index.ts names every export (no `export *`)", () => {
    expect(fs.readFileSync(path.join(REPO_ROOT, "src", "index.ts"), "utf8")).not.toMatch(/export \*/);
  });

  it("works as the README shows: a runtime over a workspace, a tool call, a client", async () => {
    const { createRuntime, inProcessClient, WorkspaceLayout, fixedClock } = (await import(pathToFileURL(ENTRY).href)) as typeof Library;
    const runtime = await createRuntime({ layout: new WorkspaceLayout(tempWorkspace()), clock: fixedClock("2026-03-01T10:00:00.000Z"), identity: { actor: "planner" }, warn: () => undefined });
    const created = await runtime.callTool("feature.init", { feature_id: "feat_lib", operation_id: "op-library-0001" });
    expect(created.envelope).toMatchObject({ ok: true, data: { feature: { feature_id: "feat_lib", status: "active" } } });
    const client = inProcessClient(runtime);
    expect((await client.callTool("feature.list", {})).envelope).toMatchObject({ ok: true, data: { features: [{ feature_id: "feat_lib" }] } });
    await client.close();
  });
});
