// A pulled workspace as `aop sync pull` materializes it (docs/handoff.md; the interface with sync): the
// records of a workspace the real CLI produced, copied where a WorkspaceLayout rooted at
// `.aop/remote/<remote>/<workspace_id>/` expects them, and origin.json beside them. Never the keys.
import fs from "node:fs";
import path from "node:path";

export interface PulledFixture {
  /** The pulled folder. */
  dir: string;
  workspaceId: string;
}

// What a pull carries (DESIGN §24): records only, never agentic/orchestrator/ (keys, policy), never hooks.log
// or doctor history.
const CARRIED = [".aop/features", ".aop/runtime/replay", ".aop/runtime/operation-ledger", ".aop/runtime/doctor/last_report.json", ".aop/runtime/handoff.json", ".checkpoints", "memory"];

function copy(from: string, to: string): void {
  const stat = fs.lstatSync(from);
  if (stat.isDirectory()) {
    fs.mkdirSync(to, { recursive: true });
    for (const name of fs.readdirSync(from)) {
      // Locks, spools and the hook's per-session state are not records.
      if (name.endsWith(".lock") || name.endsWith(".spool") || name.endsWith(".hook-state.json") || name === "handoff") continue;
      copy(path.join(from, name), path.join(to, name));
    }
  } else if (stat.isFile()) {
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(from, to);
  }
}

/** The workspace id of `root` (its .aop/workspace.json), made by the CLI on first need. */
function workspaceIdOf(root: string): string {
  return (JSON.parse(fs.readFileSync(path.join(root, ".aop/workspace.json"), "utf8")) as { workspace_id: string }).workspace_id;
}

export function materializePull(
  from: string,
  into: string,
  options: { remote?: string; displayName: string; workspaceId?: string; committedAt?: string; pulledAt?: string },
): PulledFixture {
  const workspaceId = options.workspaceId ?? workspaceIdOf(from);
  const remote = options.remote ?? "origin";
  const dir = path.join(into, ".aop", "remote", remote, workspaceId);
  fs.rmSync(dir, { recursive: true, force: true });
  for (const rel of CARRIED) if (fs.existsSync(path.join(from, rel))) copy(path.join(from, rel), path.join(dir, rel));
  const now = new Date().toISOString();
  const origin = {
    version: 1,
    remote,
    workspace_id: workspaceId,
    display_name: options.displayName,
    commit: "0123456789abcdef0123456789abcdef01234567",
    committed_at: options.committedAt ?? now,
    pulled_at: options.pulledAt ?? now,
  };
  fs.writeFileSync(path.join(dir, "origin.json"), JSON.stringify(origin, null, 2) + "\n");
  return { dir, workspaceId };
}

/** Every file under `dir` with its bytes, to prove a reader left a folder as it was. */
export function snapshotTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), e.isFile() ? fs.readFileSync(p).toString("base64") : `(${e.isSymbolicLink() ? "link" : "special"})`);
    }
  };
  walk(dir);
  return out;
}
