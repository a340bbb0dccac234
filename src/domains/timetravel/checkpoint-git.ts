// `.checkpoints/` as git had it at a given time (docs/replay.md, "Time travel"): the newest commit touching
// the folder at or before that time, and the checkpoint files in that commit's tree. Read with git only
// (log, ls-tree, cat-file): the work tree and the index are never read or touched.
import path from "node:path";
import { READ_LIMITS } from "../../store/read-limits.js";
import type { WorkspaceLayout } from "../../store/layout.js";
import { checkpointFromFile } from "./state-fold.js";
import type { CheckpointAt, Known } from "./state-types.js";

/** Commits read from the folder's history: a longer history shows the newest ones. */
const MAX_COMMITS = 10_000;
const MAX_SKILLS = 1_000;

type GitView = Known<{ commit: string | null; skills: Record<string, CheckpointAt> }>;

function git(cwd: string, args: string[]): { ok: boolean; stdout: string } {
  // node:child_process loaded on first use: the doctor loads this domain for its tool names only.
  const r = process.getBuiltinModule("node:child_process").spawnSync("git", args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, stdio: ["ignore", "pipe", "ignore"] });
  return { ok: !r.error && r.status === 0, stdout: r.stdout ?? "" };
}

export class CheckpointHistory {
  private commits: { commit: string; at: number }[] | null = null;
  private problem: string | null = null;
  private readonly views = new Map<string, GitView>();
  private readonly dir: string;
  private readonly rel: string;

  constructor(layout: WorkspaceLayout) {
    this.dir = layout.checkpointsProjectDir;
    this.rel = path.basename(layout.checkpointsDir);
  }

  private load(): void {
    if (this.commits !== null || this.problem !== null) return;
    const inside = git(this.dir, ["rev-parse", "--is-inside-work-tree"]);
    if (!inside.ok || inside.stdout.trim() !== "true") {
      this.problem = "the workspace is not a git repository (or git is not installed): past checkpoint files are not kept";
      return;
    }
    const log = git(this.dir, ["log", `-n${MAX_COMMITS}`, "--format=%H %ct", "--", this.rel]);
    if (!log.ok) {
      this.commits = [];
      return;
    }
    this.commits = log.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [commit, seconds] = line.split(" ");
        return { commit: commit!, at: Number(seconds) * 1000 };
      });
  }

  /** The newest commit of the folder at or before `ts` (null: none yet; undefined: no git history at all). */
  commitAt(ts: string): string | null | undefined {
    this.load();
    if (this.problem !== null) return undefined;
    // git keeps commit times in whole seconds: a commit in the step's second counts as before it.
    const limit = Math.floor(Date.parse(ts) / 1000) * 1000;
    return this.commits!.find((c) => c.at <= limit)?.commit ?? null;
  }

  /** The checkpoints as committed at `ts` (the newest commit at or before it). */
  at(ts: string): GitView {
    const commit = this.commitAt(ts);
    if (commit === undefined) return { unknown: this.problem! };
    const found = commit === null ? null : { commit };
    if (!found) return { commit: null, skills: {} };
    const cached = this.views.get(found.commit);
    if (cached) return cached;
    const view = this.read(found.commit);
    this.views.set(found.commit, view);
    return view;
  }

  private read(commit: string): GitView {
    const listing = git(this.dir, ["ls-tree", "-l", commit, "--", `${this.rel}/`]);
    if (!listing.ok) return { unknown: `git could not list ${this.rel}/ at commit ${commit}` };
    const skills: Record<string, CheckpointAt> = {};
    for (const line of listing.stdout.split("\n").slice(0, MAX_SKILLS)) {
      // "<mode> blob <object> <size>\t<path>"
      const m = /^\d+ blob ([0-9a-f]+)\s+(\d+)\t(.+)$/.exec(line);
      if (!m) continue;
      const name = path.basename(m[3]!);
      if (!name.endsWith(".checkpoint.json")) continue;
      const skill = name.slice(0, -".checkpoint.json".length);
      if (Number(m[2]) > READ_LIMITS.checkpoint) continue;
      const blob = git(this.dir, ["cat-file", "blob", m[1]!]);
      try {
        const value = JSON.parse(blob.stdout) as unknown;
        if (value !== null && typeof value === "object" && !Array.isArray(value)) skills[skill] = checkpointFromFile(value as Record<string, unknown>, `git:${commit}`);
      } catch {
        // A file that was not JSON in that commit says nothing about the skill's state.
      }
    }
    return { commit, skills };
  }
}
