// The names of a gate run's files in its feature's evidence folder: the evidence file and the signed
// files beside it (docs/evidence.md). Pure: names in, names out.
import { validateId } from "../core/ids.js";

/** The endings of a gate run's evidence file and of the signed files beside it. */
const GATE_EVIDENCE_EXT = ".json";
const SIGNED_EXT = { attestation: ".intoto.jsonl", bundle: ".sigstore.json" } as const;

/** `gate-<mode>-<epoch_ms>.json`, the name of a gate run's evidence file. */
export function gateEvidenceName(mode: string, epochMs: number): string {
  return `gate-${validateId("mode", mode)}-${epochMs}${GATE_EVIDENCE_EXT}`;
}

/** The file name of a gate run's attestation or bundle (verifiers match listings against it). */
export function gateSiblingName(mode: string, epochMs: number, kind: keyof typeof SIGNED_EXT): string {
  return `gate-${validateId("mode", mode)}-${epochMs}${SIGNED_EXT[kind]}`;
}

/** The attestation or bundle name beside a gate evidence file named `gateName` (`gate-…-<ms>.json`). */
export function siblingOfGateName(gateName: string, kind: keyof typeof SIGNED_EXT): string {
  return gateName.slice(0, -GATE_EVIDENCE_EXT.length) + SIGNED_EXT[kind];
}

/** Whether a name of the evidence folder is an attestation or a bundle (of some gate run, or none). */
export function isSignedEvidenceName(name: string): boolean {
  return name.endsWith(SIGNED_EXT.attestation) || name.endsWith(SIGNED_EXT.bundle);
}
