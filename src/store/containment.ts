// Keeps file access inside its workspace: a path under a workspace root may pass through symbolic links
// (to files or folders) only when they lead somewhere inside the same workspace (docs/hardening.md).
// Every WorkspaceLayout registers its root here, so every store read and write can check its target
// without being told which workspace it belongs to.
import fs from "node:fs";
import path from "node:path";
import { AopError } from "../core/errors.js";

// Lexical root → its real path (undefined until the folder exists).
const roots = new Map<string, string | undefined>();
// The roots that are workspaces (not the folders that only hold a named checkpoints folder).
const workspaceRoots = new Set<string>();

/** `containmentOnly`: a folder links are judged against, not a workspace (a named checkpoints folder's parent). */
export function registerWorkspaceRoot(root: string, options: { containmentOnly?: boolean } = {}): void {
  if (!roots.has(root)) roots.set(root, undefined);
  if (options.containmentOnly !== true) workspaceRoots.add(root);
}

/**
 * A workspace root holding `dir` that does not exist (removed under this process, or never created), or
 * null. Only `aop init` creates a workspace (docs/hardening.md, "Root rules"): a folder below a missing
 * root is not made, so a workspace removed under a long-lived process stays removed.
 */
export function missingWorkspaceRoot(dir: string): string | null {
  for (const root of workspaceRoots) if (isWithin(root, dir) && !fs.existsSync(root)) return root;
  return null;
}

function isWithin(parent: string, child: string): boolean {
  if (child === parent) return true;
  return child.startsWith(parent.endsWith(path.sep) ? parent : parent + path.sep);
}

/** The innermost registered root that lexically holds `target`. */
function owningRoot(target: string): string | null {
  let best: string | null = null;
  for (const root of roots.keys()) if (isWithin(root, target) && (best === null || root.length > best.length)) best = root;
  return best;
}

function realRootOf(root: string): string | undefined {
  let real = roots.get(root);
  if (real === undefined) {
    try {
      real = fs.realpathSync.native(root);
      roots.set(root, real);
    } catch {
      return undefined; // not created yet: nothing below it can be a link
    }
  }
  return real;
}

function realpathOrNull(p: string): string | null {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return null;
  }
}

/**
 * Where the folder holding `target` really is, when that lies outside the workspace; null when it is
 * inside (or not under any workspace, or not created yet: folders aop creates are never links).
 * `memo` remembers folders found inside during one scan, so a scan of many files checks each folder once.
 */
export function folderEscape(target: string, memo?: Set<string>): string | null {
  // A scan's hot path: its folder was checked already (a plain slice, not path.dirname, for speed).
  if (memo !== undefined && memo.has(target.slice(0, target.lastIndexOf(path.sep)))) return null;
  const root = owningRoot(target);
  if (root === null) return null;
  const realRoot = realRootOf(root);
  if (realRoot === undefined) return null;
  let dir = path.dirname(target);
  if (!isWithin(root, dir)) return null; // the root itself: what lies above it is not ours to judge
  for (;;) {
    const real = realpathOrNull(dir);
    if (real !== null) {
      if (!isWithin(realRoot, real)) return real;
      if (dir === path.dirname(target)) memo?.add(dir);
      return null;
    }
    if (dir === root || !isWithin(root, dir)) return null;
    dir = path.dirname(dir); // missing so far: its nearest existing ancestor decides
  }
}

interface Resolved {
  /** Where the path really leads when that is outside the workspace, else null. */
  outside: string | null;
  /** The real path of `target` when it is itself a symbolic link (inside the workspace), else null. */
  linkTarget: string | null;
}

function resolveTarget(target: string, memo?: Set<string>): Resolved {
  const viaFolder = folderEscape(target, memo);
  if (viaFolder !== null) return { outside: viaFolder, linkTarget: null };
  const root = owningRoot(target);
  if (root === null) return { outside: null, linkTarget: null };
  try {
    if (!fs.lstatSync(target).isSymbolicLink()) return { outside: null, linkTarget: null };
  } catch {
    return { outside: null, linkTarget: null };
  }
  const realRoot = realRootOf(root)!;
  const real = realpathOrNull(target) ?? danglingTarget(target);
  return isWithin(realRoot, real) ? { outside: null, linkTarget: real } : { outside: real, linkTarget: null };
}

/** Where `target` leads when it (or a folder above it) is a symbolic link out of the workspace; else null. */
export function linkEscape(target: string, memo?: Set<string>): string | null {
  return resolveTarget(target, memo).outside;
}

/** Where a link that points at nothing would create its file. */
function danglingTarget(link: string): string {
  let to: string;
  try {
    to = fs.readlinkSync(link);
  } catch {
    return link;
  }
  const dir = realpathOrNull(path.dirname(link)) ?? path.dirname(link);
  return path.resolve(dir, to);
}

/** `target` relative to its workspace root, for messages (absolute when it is under none). */
export function displayPath(target: string): string {
  const root = owningRoot(target);
  return root === null || root === target ? target : path.relative(root, target).split(path.sep).join("/");
}

export function outsideWorkspaceError(target: string, resolved: string): AopError {
  return new AopError("path_outside_workspace", `${displayPath(target)} leads outside the workspace (to ${resolved}) through a symbolic link: refused`, {
    details: { path: target, resolved },
    hint: "replace the link with a real file or folder inside the workspace (links that stay inside it are fine)",
  });
}

/**
 * The path to write `target` through: `target` itself, or the real file a symbolic link inside the
 * workspace points at (so a whole-file write keeps the link). Throws path_outside_workspace when a link
 * (the file's or a folder's above it) leads out of the workspace.
 */
export function containedWritePath(target: string): string {
  const { outside, linkTarget } = resolveTarget(target);
  if (outside !== null) throw outsideWorkspaceError(target, outside);
  return linkTarget ?? target;
}

/** Throws path_outside_workspace when `target` (a file or a folder) leads out of its workspace. */
export function assertContained(target: string): void {
  const outside = linkEscape(target);
  if (outside !== null) throw outsideWorkspaceError(target, outside);
}
