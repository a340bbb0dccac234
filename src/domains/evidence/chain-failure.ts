// The verifier's failures: what went wrong at which entry, as plain data.
export type ChainFailureCode = "evidence_chain_missing" | "evidence_chain_artifact_missing" | "evidence_chain_hash_mismatch" | "evidence_chain_discontinuity";

export interface Failure {
  code: ChainFailureCode;
  sequence: number | null;
  reason: string;
  path: string | null;
  expected: string | null;
  actual: string | null;
}

/** A file the reader would not read, and why (the end of a sentence, with the store's code). */
export interface Refused {
  refused: string;
}

export function isRefused(value: unknown): value is Refused {
  return typeof value === "object" && value !== null && "refused" in value;
}

export function discontinuity(sequence: number | null, reason: string, path: string | null, expected: string | null = null, actual: string | null = null): Failure {
  return { code: "evidence_chain_discontinuity", sequence, reason, path, expected, actual };
}

export function mismatch(sequence: number | null, reason: string, path: string | null, expected: string | null, actual: string | null): Failure {
  return { code: "evidence_chain_hash_mismatch", sequence, reason, path, expected, actual };
}

export function missing(sequence: number | null, reason: string, path: string): Failure {
  return { code: "evidence_chain_artifact_missing", sequence, reason, path, expected: null, actual: null };
}
