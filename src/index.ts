// The library's public surface, and the only one (package.json "exports" has no deep paths): named
// exports only, each listed here on purpose. test/index.test.ts checks that the built entry
// exports exactly these names, so anything added or dropped is a visible change. The domains' own
// index.ts files are the internal surfaces; nothing here reaches past them.

// Calling tools: the pipeline, its clients, the catalog and the types of every tool.
export { createRuntime, type RuntimeSetup } from "./app/create-runtime.js";
export { ToolRuntime, type CallResult } from "./runtime/tool-runtime.js";
export { inProcessClient } from "./app/clients/in-process.js";
export { mcpClient, type McpClientOptions, type McpToolClient } from "./app/clients/mcp.js";
export type { ClientCallResult, ToolClient } from "./app/clients/tool-client.js";
export type { IdentityOverrides } from "./runtime/run-context.js";
export { loadCatalog, mcpToolName } from "./catalog/catalog.js";
export type { CatalogEntry, ToolArgs, ToolContext, ToolHandler, ToolName, ToolResult } from "./catalog/tool-types.js";

// Workspaces and configuration.
export { WorkspaceLayout } from "./store/layout.js";
export { findWorkspaceRoot } from "./store/workspace-root.js";
export { loadPolicy, loadPolicyTolerant, policyDefaults } from "./config/policy-loader.js";
export { loadGates, loadGatesTolerant } from "./config/gates-loader.js";
export type { ConfigProblem, Policy, Role } from "./config/policy-types.js";
export type { GatesConfig, GateStep } from "./config/gates-types.js";

// Pure pieces: canonical JSON, hashes, ids, instants, errors, clocks.
export { canonicalJson, CanonicalJsonError } from "./core/canonical-json.js";
export { hashCanonical, isHashString, normalizeHash, sha256Of } from "./core/hash.js";
export { idProblem, isSafeId, validateId } from "./core/ids.js";
export { isIsoUtc } from "./core/instant.js";
export { AopError, envelopeFromError, ERROR_CODES, errorEnvelope, okEnvelope, type Envelope, type ErrorBody, type ErrorCode } from "./core/errors.js";
export { fixedClock, isoUtc, systemClock, type Clock } from "./core/clock.js";

// Store primitives: atomic writes, JSONL, cross-process locks.
export { writeFileAtomic } from "./store/atomic-write.js";
export { appendJsonLine, readJsonl } from "./store/jsonl.js";
export { acquireLock, withLock } from "./store/lock.js";

// Checkpoints: the validator, ranking and the resume block.
export { buildResumeBlock, loadCheckpointValidator, pickNext, rankCheckpoints, type Checkpoint, type CheckpointProblem, type FileReport, type ResumeBlock } from "./domains/checkpoints/index.js";

// Gates, evidence and the integrity chain.
export { runGate, type GateRunReport, type RunGateInput } from "./domains/gates/index.js";
export { computeChainHash, findLatestEvidence, GENESIS_HASH, verifyAllChains, verifyChain, verifyFeatureChain, type ChainEntry, type ChainVerifyReport, type GateEvidence, type StepResult } from "./domains/evidence/index.js";

// Signed evidence: the RFC 6962 Merkle tree and the DSSE pre-authentication encoding.
export { inclusionProof, leafHash, merkleRoot, preAuthEncoding, rootFromInclusionProof, verifyInclusion, type EvidenceVerifyReport } from "./domains/attest/index.js";
