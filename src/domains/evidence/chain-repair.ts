// What repairs each kind of broken chain (docs/evidence.md, "Repairing a chain"), said the same way by
// `aop evidence verify` and the doctor. Re-running a gate repairs nothing: it appends to the broken chain.
// Pure.

/** The fix line for a chain of `featureId` that failed with `failureCode` at `path` (the file it names). */
export function chainRepairHint(featureId: string, failureCode: string | null, path: string | null): string {
  const reset = `to start over instead, \`aop evidence reset-chain --feature-id ${featureId} --reason <why>\` keeps this chain under a dated name and records the reset`;
  switch (failureCode) {
    case "evidence_chain_hash_mismatch":
    case "evidence_chain_artifact_missing":
      return `restore ${path ?? "the changed file"} from git (\`git checkout -- <file>\`) or a trusted copy; ${reset}`;
    case "evidence_chain_missing":
      return `restore .aop/features/${featureId}/evidence/chain.jsonl from git or a trusted copy; ${reset}`;
    default:
      return `restore .aop/features/${featureId}/evidence/ (chain.jsonl, manifest.integrity.json and the files they name) from git or a trusted copy; ${reset}`;
  }
}
