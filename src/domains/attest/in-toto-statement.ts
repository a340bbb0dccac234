// The in-toto Statement v1 for one gate run, with the test-result predicate (in-toto/attestation
// spec/predicates/test-result.md, v0.1). Pure: evidence and digests in, statement out.
import type { GateEvidence } from "../evidence/index.js";

const STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
const TEST_RESULT_PREDICATE_TYPE = "https://in-toto.io/attestation/test-result/v0.1";

/** An in-toto ResourceDescriptor as we use it: a workspace-relative name and its hex SHA-256. */
export interface ResourceDescriptor {
  name: string;
  digest: { sha256: string };
}

export interface TestResultStatement {
  _type: typeof STATEMENT_TYPE;
  subject: ResourceDescriptor[];
  predicateType: typeof TEST_RESULT_PREDICATE_TYPE;
  predicate: {
    result: "PASSED" | "FAILED";
    configuration: ResourceDescriptor[];
    passedTests: string[];
    failedTests: string[];
  };
}

const HEX64 = /^[0-9a-f]{64}$/;

/** `sha256:<hex>` (our hash strings) → the bare hex in-toto digest sets carry. */
export function bareHex(hash: string): string {
  return hash.startsWith("sha256:") ? hash.slice(7) : hash;
}

export function descriptor(name: string, hash: string): ResourceDescriptor {
  return { name, digest: { sha256: bareHex(hash) } };
}

/**
 * Subjects: the evidence file, then every step log it records (skipped steps have none). Steps that ran
 * and passed are passedTests, steps that ran and failed or timed out are failedTests; skipped steps are
 * neither (the evidence file says why they were skipped).
 */
export function gateStatement(evidencePath: string, evidenceHash: string, evidence: GateEvidence, configuration: ResourceDescriptor[]): TestResultStatement {
  const subject = [descriptor(evidencePath, evidenceHash)];
  const passedTests: string[] = [];
  const failedTests: string[] = [];
  for (const step of evidence.step_results) {
    if (step.log_path !== null && step.log_sha256 !== null) subject.push(descriptor(step.log_path, step.log_sha256));
    if (step.skipped) continue;
    (step.exit_code === 0 && !step.timed_out ? passedTests : failedTests).push(step.name);
  }
  return {
    _type: STATEMENT_TYPE,
    subject,
    predicateType: TEST_RESULT_PREDICATE_TYPE,
    predicate: { result: evidence.overall === "pass" ? "PASSED" : "FAILED", configuration, passedTests, failedTests },
  };
}

/** The subjects of a Statement v1 (any predicate), or why the payload is not one. */
export function statementSubjects(payload: Uint8Array): ResourceDescriptor[] | string {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload).toString("utf8"));
  } catch {
    return "its payload is not JSON";
  }
  const s = value as Record<string, unknown> | null;
  if (s === null || typeof s !== "object" || s._type !== STATEMENT_TYPE) return `its payload is not an in-toto Statement v1 (_type ${JSON.stringify(s?._type ?? null)})`;
  if (!Array.isArray(s.subject) || s.subject.length === 0) return "its statement has no subjects";
  const out: ResourceDescriptor[] = [];
  for (const d of s.subject as Record<string, unknown>[]) {
    const sha = (d?.digest as Record<string, unknown> | undefined)?.sha256;
    if (typeof d?.name !== "string" || typeof sha !== "string" || !HEX64.test(sha)) return "a subject has no name or no sha256 digest";
    out.push({ name: d.name, digest: { sha256: sha } });
  }
  return out;
}
