// The workspace's id (DESIGN §20, docs/foundation.md "Workspace id"): 128 random bits kept in
// .aop/workspace.json beside a fingerprint of the host and the workspace's real path. Trace ids include
// it, so two workspaces never share a trace; a copy (another path or host) no longer matches its
// fingerprint and takes an id of its own, so the copy's exports never land in the original's traces.
import fs from "node:fs";
import os from "node:os";
import { nowIso, type Clock } from "../core/clock.js";
import { AopError } from "../core/errors.js";
import { isWorkspaceId } from "../core/ids.js";
import { isHashString, nodeCrypto, sha256Of } from "../core/hash.js";
import { isIsoUtc } from "../core/instant.js";
import { createFileAtomic, writeFileAtomic } from "./atomic-write.js";
import { displayPath } from "./containment.js";
import type { WorkspaceLayout } from "./layout.js";
import { acquireLock } from "./lock.js";
import { READ_LIMITS } from "./read-limits.js";
import { describeRefusal, readBytesBounded, refusalError } from "./read-text-bounded.js";

export interface WorkspaceIdentity {
  version: 1;
  /** 32 lowercase hex characters. */
  workspace_id: string;
  /** `sha256:` of the host name and the workspace's real path (neither is stored in the clear). */
  fingerprint: string;
  created_at: string;
  /** The id of the workspace this one was copied from, when it was renewed for that reason. */
  previous_id?: string;
  /** How `aop sync` names this workspace to others (`aop sync push --name`); default `<user>@<host>`. */
  display_name?: string;
}

/** What ensureWorkspaceIdentity did: read it, wrote the first one, or wrote a new one. */
type IdentityOutcome = "kept" | "created" | "renewed" | "regenerated";

export interface IdentityResult {
  identity: WorkspaceIdentity;
  outcome: IdentityOutcome;
  /** Why a new id replaced the file's (renewed: a copy; regenerated: the file could not be used); else null. */
  reason: string | null;
}

export interface IdentityOptions {
  /** Receives the warning for a file that could not be used; defaults to stderr. */
  warn?: (message: string) => void;
}

/** A slow path waits behind another process writing the file, never behind a stuck one for long. */
const LOCK_TIMEOUT_MS = 20_000;

/** A display name: 1-100 characters, no control characters. */
export function isDisplayName(value: unknown): value is string {
  // eslint-disable-next-line no-control-regex
  return typeof value === "string" && value.length >= 1 && value.length <= 100 && !/[\u0000-\u001f\u007f]/.test(value);
}

/** The fingerprint of a workspace at `realRoot` on `host`. Pure. */
export function workspaceFingerprint(host: string, realRoot: string): string {
  return sha256Of(`aop-workspace\n${host}\n${realRoot}`);
}

/** Why `value` is not a workspace identity, or null when it is one. Pure. */
export function identityProblem(value: unknown): string | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "is not a JSON object";
  const v = value as Record<string, unknown>;
  if (v.version !== 1) return "has no version 1";
  if (!isWorkspaceId(v.workspace_id)) return "has no workspace_id of 32 lowercase hex characters";
  if (!isHashString(v.fingerprint)) return "has no sha256: fingerprint";
  if (!isIsoUtc(v.created_at)) return "has no created_at time";
  if (v.previous_id !== undefined && !isWorkspaceId(v.previous_id)) return "has a previous_id that is not a workspace id";
  if (v.display_name !== undefined && !isDisplayName(v.display_name)) return "has a display_name that is not 1-100 printable characters";
  return null;
}

type Read = { status: "ok"; identity: WorkspaceIdentity } | { status: "missing" } | { status: "unusable"; problem: string };

function readIdentity(file: string): Read {
  const read = readBytesBounded(file, READ_LIMITS.workspaceIdentity);
  if (read.status === "missing") return { status: "missing" };
  // A link out of the workspace is refused like every such read, never replaced by a write through it.
  if (read.status === "outside_workspace") throw refusalError(file, read);
  if (read.status !== "ok") return { status: "unusable", problem: describeRefusal(read) };
  let value: unknown;
  try {
    value = JSON.parse(read.bytes.toString("utf8"));
  } catch {
    return { status: "unusable", problem: "is not JSON" };
  }
  const problem = identityProblem(value);
  return problem === null ? { status: "ok", identity: value as WorkspaceIdentity } : { status: "unusable", problem };
}

function currentFingerprint(layout: WorkspaceLayout): string {
  let real: string;
  try {
    // The real path: the same folder reached through a linked parent (/tmp → /private/tmp) is the same workspace.
    real = fs.realpathSync.native(layout.root);
  } catch {
    real = layout.root;
  }
  return workspaceFingerprint(os.hostname(), real);
}

function freshIdentity(fingerprint: string, clock: Clock, previousId: string | null, displayName?: string): WorkspaceIdentity {
  const identity: WorkspaceIdentity = { version: 1, workspace_id: nodeCrypto().randomBytes(16).toString("hex"), fingerprint, created_at: nowIso(clock) };
  if (previousId !== null) identity.previous_id = previousId;
  if (displayName !== undefined) identity.display_name = displayName;
  return identity;
}

const serialize = (identity: WorkspaceIdentity) => JSON.stringify(identity, null, 2) + "\n";

/**
 * The workspace's id, created on first need: read `.aop/workspace.json` and keep it when its fingerprint
 * is this host's and this path's; otherwise, under the file's lock, create it (exclusively, then read
 * back) or replace it atomically — renewed for a copy (the old id kept as previous_id), regenerated with
 * a warning for a file that cannot be used. Only inside a workspace aop already writes to (`.aop/`
 * exists): a folder that is none is never made one here.
 */
export async function ensureWorkspaceIdentity(layout: WorkspaceLayout, clock: Clock, options: IdentityOptions = {}): Promise<IdentityResult> {
  const file = layout.workspaceIdentityFile;
  const fingerprint = currentFingerprint(layout);
  const first = readIdentity(file);
  if (first.status === "ok" && first.identity.fingerprint === fingerprint) return { identity: first.identity, outcome: "kept", reason: null };
  if (!fs.existsSync(layout.aopDir)) {
    throw new AopError("workspace_not_found", `${layout.root} has no .aop/ folder: nothing was recorded here, so it has no workspace id`, {
      details: { root: layout.root },
      hint: "run `aop init` in the project folder first",
    });
  }
  const release = await acquireLock(layout.lockFor(file), { timeoutMs: LOCK_TIMEOUT_MS });
  try {
    return settle(file, fingerprint, clock, options);
  } finally {
    release();
  }
}

/** Under the lock: what another process may have written meanwhile wins when it matches. */
function settle(file: string, fingerprint: string, clock: Clock, options: IdentityOptions): IdentityResult {
  const now = readIdentity(file);
  if (now.status === "ok" && now.identity.fingerprint === fingerprint) return { identity: now.identity, outcome: "kept", reason: null };
  if (now.status !== "missing") return replace(file, now, fingerprint, clock, options);
  const identity = freshIdentity(fingerprint, clock, null);
  // Exclusive: a writer that does not take the lock (an older aop) is never overwritten here.
  if (!createFileAtomic(file, serialize(identity))) {
    const taken = readIdentity(file);
    if (taken.status === "ok" && taken.identity.fingerprint === fingerprint) return { identity: taken.identity, outcome: "kept", reason: null };
    if (taken.status !== "missing") return replace(file, taken, fingerprint, clock, options);
    writeFileAtomic(file, serialize(identity)); // a dangling link inside the workspace: written through
  }
  const back = readIdentity(file);
  if (back.status !== "ok") throw new AopError("file_corrupt", `${displayPath(file)} ${back.status === "missing" ? "is gone" : back.problem} right after it was written`, { details: { path: file } });
  return { identity: back.identity, outcome: "created", reason: null };
}

/** A new id in place of the file's: renewed for a copy, regenerated (with a warning) for an unusable file. */
function replace(file: string, found: Exclude<Read, { status: "missing" }>, fingerprint: string, clock: Clock, options: IdentityOptions): IdentityResult {
  let result: IdentityResult;
  if (found.status === "ok") {
    const reason = "the workspace was copied or moved from another path or host";
    result = { identity: freshIdentity(fingerprint, clock, found.identity.workspace_id, found.identity.display_name), outcome: "renewed", reason };
  } else {
    result = { identity: freshIdentity(fingerprint, clock, null), outcome: "regenerated", reason: `the file ${found.problem}` };
    (options.warn ?? defaultWarn)(`${displayPath(file)} ${found.problem}; wrote a new workspace id (runs exported from now on get new trace ids)`);
  }
  writeFileAtomic(file, serialize(result.identity));
  return result;
}

function defaultWarn(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}

/** Keeps `name` as the workspace's display name (`aop sync push --name`), under the identity file's lock. */
export async function setDisplayName(layout: WorkspaceLayout, clock: Clock, name: string): Promise<WorkspaceIdentity> {
  if (!isDisplayName(name)) throw new AopError("invalid_argument", "--name must be 1-100 characters without control characters", { hint: "for example --name ada@laptop" });
  const { identity } = await ensureWorkspaceIdentity(layout, clock);
  if (identity.display_name === name) return identity;
  const file = layout.workspaceIdentityFile;
  const release = await acquireLock(layout.lockFor(file), { timeoutMs: LOCK_TIMEOUT_MS });
  try {
    const now = readIdentity(file);
    const base = now.status === "ok" && now.identity.workspace_id === identity.workspace_id ? now.identity : identity;
    const named = { ...base, display_name: name };
    writeFileAtomic(file, serialize(named));
    return named;
  } finally {
    release();
  }
}

/** The name a workspace goes by on a remote (docs/sync.md): its display_name, else `<user>@<host>`. */
export function displayNameOf(identity: WorkspaceIdentity): string {
  if (identity.display_name !== undefined) return identity.display_name;
  let user = "user";
  try {
    user = os.userInfo().username || user;
  } catch {
    // no passwd entry (some containers): the generic name
  }
  return `${user}@${os.hostname()}`.slice(0, 100);
}
