// `aop migrate` for configuration (DESIGN §21, docs/compatibility.md): what the upstream orchestrator's
// schemas refuse moves where upstream does not look. An older gates.yaml's top-level `default_profile`
// moves to policy.yaml's `gate_selection.default_profile` (upstream's own key, read by aop first); the
// aop-only keys of an older policy.yaml move to agentic/orchestrator/aop.yaml (where a key is set in
// both, aop.yaml's value is the one aop already reads, so policy.yaml's is only removed). Comments and
// the rest of every file are kept (YAML documents are edited, not re-serialised from values); the old
// files are backed up first.
import fs from "node:fs";
import path from "node:path";
import type * as YamlModule from "yaml";
import type { Document } from "yaml";
import { ensureDir, writeFileAtomic } from "../store/atomic-write.js";
import type { WorkspaceLayout } from "../store/layout.js";
import { readBytesBounded } from "../store/read-text-bounded.js";
import { MAX_CONFIG_BYTES } from "./read-config-file.js";
import { AOP_ONLY_POLICY_KEYS } from "./upstream-shape.js";

export interface ConfigMigration {
  /** The profile moved, or null when gates.yaml has no default_profile. */
  default_profile: string | null;
  /** True when policy.yaml already named a default profile: gates.yaml's is then only removed. */
  policy_had_one: boolean;
  /** aop-only keys moved from policy.yaml to aop.yaml (dotted paths). */
  aop_keys: string[];
  /** Keys aop.yaml already set (and which aop already read from there): policy.yaml's value was only removed. */
  aop_keys_kept: string[];
  changed: string[];
  backups: string[];
}

function readText(file: string): string | null {
  const read = readBytesBounded(file, MAX_CONFIG_BYTES);
  if (read.status === "missing") return null;
  if (read.status !== "ok") throw new Error(`${file}: cannot be read (${read.status})`);
  return read.bytes.toString("utf8");
}

type Yaml = typeof YamlModule;

/** A file's document; a missing or empty file is a new block mapping holding `version: 1`. Null when the YAML is broken (nothing is moved out of it). */
function documentOf(yaml: Yaml, text: string | null): Document | null {
  if (text === null || text.trim() === "") return new yaml.Document({ version: 1 });
  const doc = yaml.parseDocument(text);
  return doc.errors.length > 0 || !yaml.isMap(doc.contents) ? null : doc;
}

/** Removes the key at `at` and then every mapping on its way up that it left empty. */
function deletePruning(yaml: Yaml, doc: Document, at: string[]): void {
  doc.deleteIn(at);
  for (let depth = at.length - 1; depth > 0; depth--) {
    const parent = doc.getIn(at.slice(0, depth), true);
    if (!yaml.isMap(parent) || parent.items.length > 0) return;
    doc.deleteIn(at.slice(0, depth));
  }
}

/**
 * Puts policy.yaml's node at `at` into aop.yaml the way the loader merges them: where aop.yaml has
 * nothing there the node moves (with its comments); where both hold mappings their keys are moved one
 * by one; anything else aop.yaml sets already wins, and policy.yaml's is only dropped (named in `kept`).
 * True when aop.yaml changed.
 */
function moveInto(yaml: Yaml, from: Document, to: Document, at: string[], kept: string[]): boolean {
  if (!to.hasIn(at)) {
    to.setIn(at, from.getIn(at, true));
    return true;
  }
  const source = from.getIn(at, true);
  const target = to.getIn(at, true);
  if (!yaml.isMap(source) || !yaml.isMap(target)) {
    kept.push(at.join("."));
    return false;
  }
  let changed = false;
  for (const pair of source.items) {
    const key = yaml.isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    changed = moveInto(yaml, from, to, [...at, key], kept) || changed;
  }
  return changed;
}

export async function migrateConfig(layout: WorkspaceLayout, options: { dryRun: boolean; backupDir: string }): Promise<ConfigMigration> {
  const yaml = await import("yaml");
  const result: ConfigMigration = { default_profile: null, policy_had_one: false, aop_keys: [], aop_keys_kept: [], changed: [], backups: [] };
  const texts = new Map<string, string | null>([layout.gatesFile, layout.policyFile, layout.aopConfigFile].map((f) => [f, readText(f)]));
  const changed = new Set<string>();
  // DRIFT_001/002 report broken files; nothing is moved out of (or into) a file aop cannot read.
  const gates = texts.get(layout.gatesFile) === null ? null : documentOf(yaml, texts.get(layout.gatesFile)!);
  const policy = documentOf(yaml, texts.get(layout.policyFile)!);
  const own = documentOf(yaml, texts.get(layout.aopConfigFile)!);
  const profile = gates?.get("default_profile");
  if (gates && typeof profile === "string") {
    if (!policy) throw new Error("agentic/orchestrator/policy.yaml is not valid YAML: fix it first (`aop config check`)");
    result.default_profile = profile;
    result.policy_had_one = typeof policy.getIn(["gate_selection", "default_profile"]) === "string";
    if (!result.policy_had_one) policy.setIn(["gate_selection", "default_profile"], profile);
    gates.delete("default_profile");
    changed.add(layout.gatesFile);
    if (!result.policy_had_one) changed.add(layout.policyFile);
  }
  if (policy && texts.get(layout.policyFile) !== null) {
    for (const dotted of AOP_ONLY_POLICY_KEYS) {
      const at = dotted.split(".");
      if (!policy.hasIn(at)) continue;
      if (!own) throw new Error("agentic/orchestrator/aop.yaml is not valid YAML: fix it first (`aop config check`)");
      result.aop_keys.push(dotted);
      if (moveInto(yaml, policy, own, at, result.aop_keys_kept)) changed.add(layout.aopConfigFile);
      deletePruning(yaml, policy, at);
      changed.add(layout.policyFile);
    }
  }
  const changedFiles = [layout.gatesFile, layout.policyFile, layout.aopConfigFile].filter((f) => changed.has(f));
  result.changed = changedFiles.map((f) => layout.relative(f));
  if (options.dryRun || changed.size === 0) return result;
  ensureDir(options.backupDir);
  for (const file of changedFiles) {
    const text = texts.get(file);
    if (text === null || text === undefined) continue;
    const backup = path.join(options.backupDir, path.basename(file));
    fs.writeFileSync(backup, text, { flag: "wx", mode: 0o600 });
    result.backups.push(layout.relative(backup));
  }
  // aop.yaml first: a migration stopped in between leaves a key in both files, which still reads the same.
  const docs = new Map<string, Document | null | undefined>([[layout.aopConfigFile, own], [layout.policyFile, policy], [layout.gatesFile, gates]]);
  for (const [file, doc] of docs) {
    if (!changed.has(file) || !doc) continue;
    if (file === layout.aopConfigFile && texts.get(file) === null) doc.commentBefore = " aop-continuity's own policy keys, which the upstream orchestrator's policy.yaml schema refuses\n (docs/compatibility.md). Merged over policy.yaml. Check it with: aop config check";
    writeFileAtomic(file, doc.toString());
  }
  return result;
}
