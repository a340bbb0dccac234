// DRIFT_012: a PEM private key in the folders aop owns. `aop keys init` never writes one there (docs/
// evidence.md "Keys"), but a person, an older version or a copied setup can; committed, it lets anyone
// sign evidence that verifies. Critical for that reason. Only paths are reported, never a byte of a key.
import fs from "node:fs";
import path from "node:path";
import type { DoctorCheck, FindingDraft } from "../check-types.js";
import { readDirEntries } from "../../../store/fs-probe.js";
import { compareText } from "../../../core/compare-text.js";
import { monotonicMs } from "../../../core/clock.js";

/** The search is bounded: a workspace of any size costs a bounded time and memory. */
export interface SearchLimits {
  entries: number;
  files: number;
  depth: number;
  /** Bytes read per file. A key file is a few KB (RSA 8192: ~6.5 KB); a key pasted into a larger file is found in its first 64 KiB. */
  bytes: number;
  /** A monotonic time (monotonicMs) at which the search stops: SessionStart's share of the hook's second. */
  until?: number;
}

/** How many files are read between two looks at the clock. */
const FILES_PER_CLOCK_READ = 64;

export const LIMITS: SearchLimits = { entries: 100_000, files: 20_000, depth: 8, bytes: 64 * 1024 };

// The armor line, then a line of base64 (or a legacy encrypted key's headers): prose that merely names
// the armor (documentation, this check's own tests) is not a key. `\n` may be JSON-escaped (a timeline).
const PRIVATE_KEY = /-----BEGIN ((?:ENCRYPTED |OPENSSH |RSA |EC |DSA )?PRIVATE KEY)-----(?:\r?\n|(?:\\r)?\\n)(?:Proc-Type:|[A-Za-z0-9+/]{16})/;

/** The kind of PEM private key `text` holds (e.g. "PRIVATE KEY", "OPENSSH PRIVATE KEY"), or null. Pure. */
export function privateKeyKind(text: string): string | null {
  return PRIVATE_KEY.exec(text)?.[1] ?? null;
}

const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);

/** The start of a regular file (never through a link, never blocking on a FIFO), or null. */
function readStart(file: string, buffer: Buffer): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, OPEN_FLAGS);
  } catch {
    return null; // gone, a link (ELOOP), unreadable: not searched
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return null;
    let read = 0;
    while (read < buffer.length) {
      const n = fs.readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.toString("latin1", 0, read);
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

export interface KeySearch {
  found: { file: string; kind: string }[];
  files: number;
  entries: number;
  /** Whether a bound was met with folders or files left unsearched. */
  stopped: boolean;
}

/** Regular files under `folders` (breadth first, links not followed) whose start holds a PEM private key. */
export function findPrivateKeys(folders: readonly string[], limits: SearchLimits = LIMITS): KeySearch {
  const buffer = Buffer.alloc(limits.bytes);
  const found: KeySearch["found"] = [];
  let entries = 0;
  let files = 0;
  let stopped = false;
  const queue = folders.map((dir) => ({ dir, depth: 0 }));
  const outOfTime = () => limits.until !== undefined && monotonicMs() >= limits.until;
  try {
    while (queue.length > 0 && !stopped) {
      if (outOfTime()) {
        stopped = true;
        break;
      }
      const { dir, depth } = queue.shift()!;
      const listed = readDirEntries(dir); // a link is neither a file nor a folder here: never followed
      entries += listed.length;
      for (const entry of listed) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (depth < limits.depth) queue.push({ dir: full, depth: depth + 1 });
        } else if (entry.isFile()) {
          if (files === limits.files || (files % FILES_PER_CLOCK_READ === FILES_PER_CLOCK_READ - 1 && outOfTime())) {
            stopped = true;
            break;
          }
          files++;
          const text = readStart(full, buffer);
          const kind = text === null ? null : privateKeyKind(text);
          if (kind !== null) found.push({ file: full, kind });
        }
      }
      if (entries >= limits.entries && queue.length > 0) stopped = true;
    }
  } finally {
    buffer.fill(0); // it may hold key material
  }
  return { found, files, entries, stopped };
}

/** The check, with its search bounds (tests make them small). */
export function privateKeyCheck(limits: SearchLimits): DoctorCheck {
  return {
  id: "DRIFT_012_PRIVATE_KEY_IN_WORKSPACE",
  severity: "critical",
  title: "no private key in the workspace",
  remediation:
    "move each key named out of the workspace (aop's signing key to $XDG_CONFIG_HOME/aop/keys/, mode 0600) and check it was never committed (`git log --all -- <file>`); if it was, or the workspace was shared, treat it as leaked: `aop keys init --new`, then delete its public key from agentic/orchestrator/keys/ so nothing it signs verifies",
  run(ctx) {
    const { layout } = ctx;
    const search = findPrivateKeys([layout.orchestratorDir, layout.checkpointsDir, layout.aopDir], ctx.searchUntil === undefined ? limits : { ...limits, until: ctx.searchUntil });
    const found = search.found.map((f) => ({ rel: layout.relative(f.file), kind: f.kind })).sort((a, b) => compareText(a.rel, b.rel));
    const findings: FindingDraft[] = [];
    if (found.length > 0) {
      const shown = found.slice(0, 10).map((f) => `${f.rel} (${f.kind})`).join(", ") + (found.length > 10 ? ` and ${found.length - 10} more` : "");
      findings.push({ message: `${found.length} file(s) in the workspace hold a private key: ${shown}`, refs: found.slice(0, 50).map((f) => f.rel) });
    }
    if (search.stopped) {
      findings.push({
        severity: "info",
        message: `the search for private keys stopped after ${search.files} files and ${search.entries} folder entries in agentic/orchestrator/, .checkpoints/ and .aop/: the rest was not searched`,
        remediation: "remove what aop no longer needs (old timelines, evidence of merged features), or search the rest yourself for `-----BEGIN … PRIVATE KEY-----`",
      });
    }
    return { findings, okMessage: "no private key in agentic/orchestrator/, .checkpoints/ or .aop/" };
  },
};
}

export const check: DoctorCheck = privateKeyCheck(LIMITS);
