// The C2SP tlog proof text (c2sp.org/tlog-proof@v1): an entry's index, its RFC 6962 inclusion path and the
// signed checkpoint it leads to, verifiable offline. Pure.

const TLOG_PROOF_HEADER = "c2sp.org/tlog-proof@v1";

export function formatTlogProof(index: number, proof: readonly Uint8Array[], checkpointNote: string): string {
  const hashes = proof.map((p) => Buffer.from(p).toString("base64") + "\n").join("");
  return `${TLOG_PROOF_HEADER}\nindex ${index}\n${hashes}\n${checkpointNote}`;
}
