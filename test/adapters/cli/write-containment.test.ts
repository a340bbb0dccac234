// The symlink table for writes (docs/hardening.md): every file and folder aop writes, replaced by a
// symbolic link out of the workspace, is refused with path_outside_workspace and the outside target is
// left exactly as it was; the same link pointing somewhere inside the workspace is simply written through.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { BASE_RUN, buildBaseWorkspace, type BaseWorkspace } from "../../helpers/base-workspace.js";
import { copyWorkspace, tempDir } from "../../helpers/tmp.js";

let base: BaseWorkspace;

beforeAll(() => {
  base = buildBaseWorkspace();
}, 60_000);

interface WritePath {
  /** Workspace-relative path replaced by a link. */
  rel: string;
  kind: "file" | "folder";
  /** The command that writes there. */
  args: string[];
  input?: (root: string) => string;
  /**
   * How a refusal shows: the command fails with the code (exit 1), or — where the write is best
   * effort (the timeline, the hook's own log) — the command succeeds and says so on stderr, or silently.
   */
  refusal: "fails" | "warns" | "silent";
  /** The exit code of a refusal, when not 1 (the doctor's "could not run" is 3). */
  exit?: number;
  /** The refusal in the words of the command, when it reports the unreadable file in its own terms. */
  says?: RegExp;
  /** A file the base workspace holds already and the command writes only when it is missing (a snapshot). */
  absent?: true;
}

const gate = ["gates", "run", "--feature-id", "feat_a", "--mode", "fast"];
const mutate = ["feature", "init", "feat_new"];
const hookEvent = (root: string) => JSON.stringify({ session_id: "s-1", transcript_path: path.join(root, "t.jsonl"), cwd: root, hook_event_name: "Notification" });
const toolEvent = (root: string) => JSON.stringify({ session_id: "s-1", transcript_path: path.join(root, "t.jsonl"), cwd: root, hook_event_name: "PostToolUse", tool_name: "Read", tool_input: {}, tool_use_id: "t1" });

const WRITES: WritePath[] = [
  { rel: ".aop/features/feat_a/evidence", kind: "folder", args: gate, refusal: "fails" },
  { rel: ".aop/features/feat_a/logs", kind: "folder", args: gate, refusal: "fails" },
  { rel: ".aop/runtime/replay", kind: "folder", args: mutate, refusal: "warns" },
  { rel: ".aop/runtime/operation-ledger", kind: "folder", args: mutate, refusal: "fails" },
  { rel: ".aop/runtime/doctor", kind: "folder", args: ["doctor"], refusal: "fails", exit: 3 },
  { rel: ".checkpoints", kind: "folder", args: ["checkpoint", "update", "builder", "--status=blocked"], refusal: "fails" },
  { rel: ".claude", kind: "folder", args: ["integrate", "claude", "--write"], refusal: "fails" },
  { rel: `.aop/runtime/replay/${BASE_RUN}.timeline.jsonl`, kind: "file", args: mutate, refusal: "warns" },
  { rel: `.aop/runtime/replay/${BASE_RUN}.meta.json`, kind: "file", args: mutate, refusal: "warns" },
  { rel: ".aop/features/feat_a/evidence/chain.jsonl", kind: "file", args: gate, refusal: "fails" },
  { rel: ".aop/features/feat_a/evidence/manifest.integrity.json", kind: "file", args: gate, refusal: "fails", says: /^error evidence_chain_discontinuity: .*the manifest cannot be trusted: it leads outside the workspace .*\[path_outside_workspace\]/m },
  { rel: ".aop/features/feat_a/evidence/latest-fast.json", kind: "file", args: gate, refusal: "fails" },
  { rel: ".aop/features/feat_a/state.md", kind: "file", args: ["feature", "set-status", "feat_a", "blocked"], refusal: "fails" },
  { rel: ".aop/features/index.json", kind: "file", args: mutate, refusal: "fails" },
  { rel: ".aop/runtime/default/run-lease.json", kind: "file", args: ["run", "start"], refusal: "fails" },
  { rel: ".aop/runtime/hooks.log", kind: "file", args: ["hook", "claude"], input: hookEvent, refusal: "silent" },
  { rel: ".aop/runtime/policy.snapshot.json", kind: "file", args: ["hook", "claude"], input: toolEvent, refusal: "silent", absent: true },
  { rel: ".aop/runtime/policy.snapshot.json", kind: "file", args: ["feature", "list"], refusal: "silent", absent: true },
  { rel: ".aop/runtime/gates.snapshot.json", kind: "file", args: ["config", "check"], refusal: "silent", absent: true },
  { rel: ".checkpoints/builder.checkpoint.json", kind: "file", args: ["checkpoint", "update", "builder", "--status=blocked"], refusal: "fails", says: /^error checkpoint_invalid: .*outside the project: refused, not followed/m },
  { rel: "agentic/orchestrator/tools.md", kind: "file", args: ["tools", "--write-docs"], refusal: "fails" },
  { rel: "agentic/orchestrator/policy.yaml", kind: "file", args: ["init", "--force"], refusal: "fails" },
  // A copy of the base workspace (another path): its id is renewed, written through a link that stays inside.
  { rel: ".aop/workspace.json", kind: "file", args: ["init"], refusal: "fails" },
];

/** A copy of the base workspace where `rel` is a link to `target` (the original content moved there). */
function linked(rel: string, kind: WritePath["kind"], where: "outside" | "inside", absent = false): { root: string; target: string } {
  const root = copyWorkspace(base.root, "aop-link-");
  const at = path.join(root, rel);
  if (absent) fs.rmSync(at, { force: true });
  const target = where === "outside" ? path.join(tempDir("aop-outside-"), path.basename(rel)) : path.join(root, "elsewhere", path.basename(rel));
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.mkdirSync(path.dirname(target), { recursive: true });
  // What exists moves to the target; a missing file becomes a dangling link, a missing folder an empty one.
  if (fs.existsSync(at)) fs.renameSync(at, target);
  else if (kind === "folder") fs.mkdirSync(target);
  fs.symlinkSync(target, at);
  return { root, target };
}

/** Every file under `p` (or `p` itself) with its inode and bytes: what "left exactly as it was" compares. */
function snapshot(p: string): Record<string, string> {
  if (!fs.existsSync(p)) return {};
  const one = (file: string) => `${fs.statSync(file).ino}:${fs.readFileSync(file, "base64")}`;
  if (!fs.statSync(p).isDirectory()) return { [p]: one(p) };
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(p, { recursive: true }).map(String).sort()) {
    const full = path.join(p, name);
    if (fs.statSync(full).isFile()) out[name] = one(full);
  }
  return out;
}

describe("write containment: no write follows a link out of the workspace", () => {
  it.each(WRITES.map((w) => [`${w.kind} ${w.rel} ← ${w.args.slice(0, 2).join(" ")}`, w] as const))("%s: a link out is refused, the outside untouched", (_name, w) => {
    const { root, target } = linked(w.rel, w.kind, "outside", w.absent);
    const before = snapshot(target);
    const r = runCli(["--root", root, "--run-id", BASE_RUN, ...w.args], { input: w.input?.(root) ?? "", cwd: root });
    expect(snapshot(target)).toEqual(before);
    if (w.refusal === "fails") {
      expect(r.code, r.stdout + r.stderr).toBe(w.exit ?? 1);
      expect(r.stderr).toMatch(w.says ?? /^error path_outside_workspace: /m);
    } else {
      expect(r.code, r.stdout + r.stderr).toBe(0);
      if (w.refusal === "warns") expect(r.stderr).toMatch(/path_outside_workspace|leads outside the workspace/);
    }
  });

  it.each(WRITES.map((w) => [`${w.kind} ${w.rel} ← ${w.args.slice(0, 2).join(" ")}`, w] as const))("%s: a link that stays inside the workspace is written through", (_name, w) => {
    const { root, target } = linked(w.rel, w.kind, "inside", w.absent);
    const before = snapshot(target);
    const r = runCli(["--root", root, "--run-id", BASE_RUN, ...w.args], { input: w.input?.(root) ?? "", cwd: root });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/path_outside_workspace/);
    expect(snapshot(target)).not.toEqual(before);
    expect(fs.lstatSync(path.join(root, w.rel)).isSymbolicLink()).toBe(true); // the link itself stays
  });
});
