// Library entry point: the pure core, the store primitives and configuration loading.
export { canonicalJson, CanonicalJsonError } from "./core/canonical-json.js";
export { hashCanonical, sha256Of, isHashString, normalizeHash } from "./core/hash.js";
export { validateId, idProblem } from "./core/ids.js";
export { AopError, ERROR_CODES, okEnvelope, errorEnvelope, envelopeFromError } from "./core/errors.js";
export type { ErrorCode, Envelope, ErrorBody } from "./core/errors.js";
export { systemClock, fixedClock, isoUtc } from "./core/clock.js";
export type { Clock } from "./core/clock.js";
export { WorkspaceLayout } from "./store/layout.js";
export { findWorkspaceRoot } from "./store/workspace-root.js";
export { writeFileAtomic } from "./store/atomic-write.js";
export { appendJsonLine, readJsonl } from "./store/jsonl.js";
export { acquireLock, withLock } from "./store/lock.js";
export { loadPolicy, loadPolicyTolerant, policyDefaults } from "./config/policy-loader.js";
export { loadGates, loadGatesTolerant } from "./config/gates-loader.js";
export type { Policy, Role, ConfigProblem } from "./config/policy-types.js";
export type { GatesConfig, GateStep } from "./config/gates-types.js";
