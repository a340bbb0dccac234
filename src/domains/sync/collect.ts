// What a push puts in the records tree, read from the workspace (docs/sync.md "What is pushed"): an
// allow-list of folders and files, never anything else. Private keys, hooks.log, environment values,
// doctor history, export cursors, spool and handoff scratch folders, locks and temp files are not in it.
// Files are walked with lstat: a symlink (file or folder) is skipped and reported, never followed, and so
// is a file over the size bound or with a name that is not a plain name.
import fs from "node:fs";
import path from "node:path";
import { isAtomicTempName } from "../../store/atomic-write.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { isTreeName } from "./record-tree.js";

/** The largest file pushed or pulled (a larger step log stays local, reported). */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;
/** The handoff note is small: `aop handoff` writes it, sync only copies it. */
const MAX_HANDOFF_BYTES = 64 * 1024;

interface FileEntry {
  /** Path in the records tree, '/'-separated. */
  treePath: string;
  file: string;
}

export interface Skipped {
  path: string;
  reason: string;
}

export interface Collected {
  files: FileEntry[];
  skipped: Skipped[];
}

/** Machine-local files inside the pushed folders that are never pushed. */
const NEVER = new Set(["attestation-receipts.txt"]);

function walk(layout: WorkspaceLayout, dir: string, treePrefix: string, out: Collected, depth = 0): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return; // absent (or unreadable) folders hold nothing to push
  }
  for (const name of names.sort()) {
    const abs = path.join(dir, name);
    const rel = layout.relative(abs);
    if (name.startsWith(".") || name.endsWith(".lock") || isAtomicTempName(name) || NEVER.has(name)) continue;
    let st: fs.Stats;
    try {
      st = fs.lstatSync(abs);
    } catch {
      continue; // removed while walking
    }
    if (st.isSymbolicLink()) {
      out.skipped.push({ path: rel, reason: "a symbolic link (never followed)" });
      continue;
    }
    if (!isTreeName(name)) {
      out.skipped.push({ path: rel, reason: "its name is not a plain name (letters, digits, _ : @ + . -)" });
      continue;
    }
    if (st.isDirectory()) {
      if (depth >= 6) out.skipped.push({ path: rel, reason: "nested too deep" });
      else walk(layout, abs, `${treePrefix}/${name}`, out, depth + 1);
      continue;
    }
    if (!st.isFile()) {
      out.skipped.push({ path: rel, reason: "not a regular file" });
      continue;
    }
    if (st.size > MAX_FILE_BYTES) {
      out.skipped.push({ path: rel, reason: `larger than ${MAX_FILE_BYTES} bytes` });
      continue;
    }
    out.files.push({ treePath: `${treePrefix}/${name}`, file: abs });
  }
}

function single(layout: WorkspaceLayout, file: string, treePath: string, max: number, out: Collected): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return;
  }
  const rel = layout.relative(file);
  if (st.isSymbolicLink()) out.skipped.push({ path: rel, reason: "a symbolic link (never followed)" });
  else if (!st.isFile()) out.skipped.push({ path: rel, reason: "not a regular file" });
  else if (st.size > max) out.skipped.push({ path: rel, reason: `larger than ${max} bytes` });
  else out.files.push({ treePath, file });
}

/** A folder the walk starts from must itself be a real folder (not a link out of the workspace). */
function walkRoot(layout: WorkspaceLayout, dir: string, treePrefix: string, out: Collected): void {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch {
    return;
  }
  if (st.isSymbolicLink()) out.skipped.push({ path: layout.relative(dir), reason: "a symbolic link (never followed)" });
  else if (st.isDirectory()) walk(layout, dir, treePrefix, out);
}

/** Every file pushed besides the timelines (which are cut into segments: push.ts). */
export function collectFiles(layout: WorkspaceLayout, runIds: string[]): Collected {
  const out: Collected = { files: [], skipped: [] };
  for (const run of runIds) {
    if (isTreeName(run)) single(layout, layout.timelineMeta(run), `meta/${run}.json`, MAX_FILE_BYTES, out);
  }
  walkRoot(layout, layout.featuresDir, "features", out);
  walkRoot(layout, layout.ledgerDir, "ledger", out);
  walkRoot(layout, layout.checkpointsDir, "checkpoints", out);
  walkRoot(layout, layout.memoryDir, "memory", out);
  single(layout, layout.doctorLastReport, "doctor/last_report.json", MAX_FILE_BYTES, out);
  single(layout, layout.handoffFile, "handoff.json", MAX_HANDOFF_BYTES, out);
  return out;
}

/** The ids of the public keys the workspace carries (agentic/orchestrator/keys/<keyid>.pub). */
export function publicKeyIds(layout: WorkspaceLayout): string[] {
  try {
    return fs
      .readdirSync(layout.keysDir)
      .map((n) => /^([0-9a-f]{64})\.pub$/.exec(n)?.[1])
      .filter((k): k is string => k !== undefined)
      .sort();
  } catch {
    return [];
  }
}
