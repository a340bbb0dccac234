// The evidence domain's public surface: gate evidence files, the integrity chain and the evidence.* tools.
// Other domains, the composition root and the adapters import only from here.
export type { ChainObserver, ChainVerifyReport } from "./chain-verify.js";
export { commitGateEvidence, type CommitResult } from "./evidence-commit.js";
export { writeGateEvidence, type WrittenEvidence } from "./evidence-files.js";
export { readWrittenEvidence, republishGateEvidence } from "./evidence-republish.js";
export { stepOutcome, type GateEvidence, type StepResult } from "./evidence-types.js";
export { chainedFeatureIds, recordVerificationResult, requireFeatureDir, verifyFeatureChain } from "./evidence-verify.js";
export { findLatestEvidence } from "./evidence-latest.js";
export { featuresWithGateEvidence, findGateEvidenceBetween } from "./evidence-find.js";
export { verifyAllChains } from "./evidence-verify.js";
export { verifyChain } from "./chain-verify.js";
export { chainLine, computeChainHash, GENESIS_HASH, type ChainEntry } from "./chain-hash.js";
export { evidenceLockPath, readChainEntries } from "./chain-store.js";
export { completeLines, readCountedChainLocked } from "./chain-prefix.js";
export { baseName, parseEvidenceFileName } from "./evidence-names.js";
export { stepLogRefs, type LogRef } from "./step-log-refs.js";
/** The domain's tool handlers, loaded on first use so that importing the domain stays cheap. */
export const loadTools = async () => (await import("./tools.js")).handlers;
export { EvidenceTrustJudge, type EvidenceTrust } from "./evidence-trust.js";
export { chainRepairHint } from "./chain-repair.js";
export type { ChainResetRecord } from "./chain-reset.js";
