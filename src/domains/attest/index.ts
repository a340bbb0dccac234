// The attest domain's public surface: signing keys, in-toto attestations of gate runs, signed chain
// anchors and inclusion proofs, and the tools that verify and make them (docs/evidence.md).
// Other domains, the composition root and the adapters import only from here.
export { gateSigner, sealGateRun, type GateSeal } from "./gate-seal.js";
export type { AnchorResult } from "./anchor-service.js";
export type { AttestReport } from "./attest-on-demand.js";
export type { EvidenceVerifyReport } from "./verify-evidence.js";
/** Verification of a pulled workspace's evidence, called directly (a tool call would record itself there). */
export const verifyEvidence: typeof VerifyEvidence = async (...args) => (await import("./verify-evidence.js")).verifyEvidence(...args);
import type { verifyEvidence as VerifyEvidence } from "./verify-evidence.js";
export { processKeyEnvironment } from "./key-environment.js";
export { initSigningKey, listKeys, type KeyInitResult, type KeyList } from "./keys-service.js";
export { preAuthEncoding } from "./dsse.js";
export { leafHash, merkleRoot, inclusionProof } from "./merkle-tree.js";
export { rootFromInclusionProof, verifyInclusion } from "./merkle-verify.js";
/** The domain's tool handlers, loaded on first use so that importing the domain stays cheap. */
export const loadTools = async () => (await import("./tools.js")).handlers;
