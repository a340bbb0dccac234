// The policy of a process that starts for one event or command and exits (the Claude Code hook, after
// every tool call of the agent; every CLI command through the kernel): loadPolicyTolerant's result kept in .aop/runtime/policy.snapshot.json beside the
// texts of policy.yaml and aop.yaml it came from and the build that made it. While both files and aop
// are unchanged, an event reads the snapshot instead of loading the YAML parser and the policy's
// validators (docs/performance.md). The texts themselves are the key, so an edit of either is seen at
// once whatever the clocks say; a missing, stale, unreadable or foreign snapshot only costs the
// ordinary load.
import fs from "node:fs";
import { isDeepStrictEqual } from "node:util";
import type { WorkspaceLayout } from "../store/layout.js";
import { writeJsonAtomic } from "../store/atomic-write.js";
import { readBytesBounded } from "../store/read-text-bounded.js";
import { READ_LIMITS } from "../store/read-limits.js";
import { policyWithoutUserFile } from "./policy-defaults.js";
import type { PolicyLoadResult } from "./policy-types.js";

interface Snapshot {
  build: string;
  /** policy.yaml's text (null: no such file). */
  source: string | null;
  /** aop.yaml's text (null: no such file). */
  aop_source: string | null;
  result: PolicyLoadResult;
}

/** This build's id (written by the build): a snapshot from another build is not trusted. */
function buildId(): string {
  // Read as a file: a JSON module through require costs a short process a module resolution.
  return (JSON.parse(fs.readFileSync(new URL("../catalog/generated/build.json", import.meta.url), "utf8")) as { id: string }).id;
}

function readSnapshot(layout: WorkspaceLayout): Snapshot | null {
  const read = readBytesBounded(layout.policySnapshotFile, READ_LIMITS.config * 2);
  if (read.status !== "ok") return null;
  try {
    const value = JSON.parse(read.bytes.toString("utf8")) as Snapshot;
    const text = (v: unknown): boolean => typeof v === "string" || v === null;
    return typeof value.build === "string" && text(value.source) && text(value.aop_source) && value.result && typeof value.result === "object" ? value : null;
  } catch {
    return null;
  }
}

/** A config file's text, null when there is none, undefined when the loader must read it itself (it refuses it). */
function configText(file: string): string | null | undefined {
  const read = readBytesBounded(file, READ_LIMITS.config);
  if (read.status === "missing") return null;
  return read.status === "ok" ? read.bytes.toString("utf8") : undefined;
}

/** loadPolicyTolerant's result, from the snapshot when it was made of this policy.yaml and aop.yaml by this build. */
export async function loadPolicySnapshot(layout: WorkspaceLayout): Promise<PolicyLoadResult> {
  const source = configText(layout.policyFile);
  const aopSource = configText(layout.aopConfigFile);
  // Neither file (the defaults, read in microseconds) or one the loader refuses: nothing to keep. The
  // loader, with the YAML parser behind it, is loaded only when the snapshot does not answer.
  if (source === null && aopSource === null) return policyWithoutUserFile();
  if (source === undefined || aopSource === undefined) return (await import("./policy-loader.js")).loadPolicyTolerant(layout);
  const build = buildId();
  const snapshot = readSnapshot(layout);
  if (snapshot && snapshot.build === build && snapshot.source === source && snapshot.aop_source === aopSource) return snapshot.result;
  const result = await (await import("./policy-loader.js")).policyFromText(source, aopSource);
  const kept: Snapshot = { build, source, aop_source: aopSource, result };
  // Kept only where aop already keeps state, and only if JSON holds it exactly.
  if (fs.existsSync(layout.runtimeDir) && isDeepStrictEqual(JSON.parse(JSON.stringify(kept)), kept)) {
    try {
      writeJsonAtomic(layout.policySnapshotFile, kept, { durable: false });
    } catch {
      // a snapshot is only a shortcut: the next event loads the policy again
    }
  }
  return result;
}
