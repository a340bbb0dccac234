// `aop migrate` for configuration (DESIGN §21, docs/compatibility.md): an older gates.yaml's top-level
// `default_profile`, which the upstream orchestrator's gates schema refuses, moves to policy.yaml's
// `gate_selection.default_profile` (upstream's own key, read by aop first). Comments and the rest of both
// files are kept (YAML documents are edited, not re-serialised from values); the old files are backed up.
import fs from "node:fs";
import path from "node:path";
import { ensureDir, writeFileAtomic } from "../store/atomic-write.js";
import type { WorkspaceLayout } from "../store/layout.js";
import { readBytesBounded } from "../store/read-text-bounded.js";
import { MAX_CONFIG_BYTES } from "./read-config-file.js";

export interface ConfigMigration {
  /** The profile moved, or null when gates.yaml has no default_profile (nothing to do). */
  default_profile: string | null;
  /** True when policy.yaml already named a default profile: gates.yaml's is then only removed. */
  policy_had_one: boolean;
  changed: string[];
  backups: string[];
}

function readText(file: string): string | null {
  const read = readBytesBounded(file, MAX_CONFIG_BYTES);
  if (read.status === "missing") return null;
  if (read.status !== "ok") throw new Error(`${file}: cannot be read (${read.status})`);
  return read.bytes.toString("utf8");
}

export async function migrateConfig(layout: WorkspaceLayout, options: { dryRun: boolean; backupDir: string }): Promise<ConfigMigration> {
  const { parseDocument } = await import("yaml");
  const result: ConfigMigration = { default_profile: null, policy_had_one: false, changed: [], backups: [] };
  const gatesText = readText(layout.gatesFile);
  if (gatesText === null) return result;
  const gates = parseDocument(gatesText);
  if (gates.errors.length > 0) return result; // DRIFT_002 reports it; nothing is moved out of a file aop cannot read
  const profile = gates.get("default_profile");
  if (typeof profile !== "string") return result;
  result.default_profile = profile;
  const policyText = readText(layout.policyFile);
  // A missing (or empty) policy.yaml becomes a mapping holding only the moved key.
  const policy = parseDocument(policyText !== null && policyText.trim() !== "" ? policyText : "{}");
  if (policy.errors.length > 0) throw new Error("agentic/orchestrator/policy.yaml is not valid YAML: fix it first (`aop config check`)");
  result.policy_had_one = typeof policy.getIn(["gate_selection", "default_profile"]) === "string";
  result.changed = [layout.relative(layout.gatesFile), ...(result.policy_had_one ? [] : [layout.relative(layout.policyFile)])];
  if (options.dryRun) return result;
  ensureDir(options.backupDir);
  for (const [file, text] of [[layout.gatesFile, gatesText], [layout.policyFile, policyText]] as const) {
    if (text === null) continue;
    const backup = path.join(options.backupDir, path.basename(file));
    fs.writeFileSync(backup, text, { flag: "wx", mode: 0o600 });
    result.backups.push(layout.relative(backup));
  }
  if (!result.policy_had_one) {
    policy.setIn(["gate_selection", "default_profile"], profile);
    writeFileAtomic(layout.policyFile, policy.toString());
  }
  gates.delete("default_profile");
  writeFileAtomic(layout.gatesFile, gates.toString());
  return result;
}
