// The digests of the files beside a gate evidence file — its attestation and its bundle — that the
// evidence folder's listing holds: what an anchor's attestation digests are compared with.
import path from "node:path";
import { sha256FileOrNull } from "../../store/file-hash.js";
import { gateSiblingName, type WorkspaceLayout } from "../../store/layout.js";
import type { SiblingDigests } from "./chain-verify.js";
import { refusedAsValue } from "./evidence-reader.js";

export function hashGateSiblings(layout: WorkspaceLayout, featureId: string, mode: string, epochMs: number, present: ReadonlySet<string>, memo: Set<string>): SiblingDigests {
  const digests = new Map<string, string | null | { refused: string }>();
  for (const kind of ["attestation", "bundle"] as const) {
    const name = gateSiblingName(mode, epochMs, kind);
    if (!present.has(name)) continue;
    const file = path.join(layout.evidenceDir(featureId), name);
    digests.set(name, refusedAsValue(() => sha256FileOrNull(file, { memo })));
  }
  return digests;
}
