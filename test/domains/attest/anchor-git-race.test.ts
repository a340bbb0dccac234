// refs/aop/anchors under concurrency: 8 processes appending and anchoring 2 features with anchor_git,
// through a git slowed down at random so that their reads and compare-and-swaps interleave. The ref must
// end at each feature's newest note, and no commit of its history may hold an older note of a feature
// than the commit before it (docs/evidence.md "Anchors", docs/hardening.md "The anchors ref"). A soak
// test (test/helpers/soak.ts): the race it needs takes this many processes; npm test anchors four
// features at once through the CLI (test/adapters/cli/anchor-git-cli.test.ts).
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import "../../helpers/workers-env.js";
import { startWorker } from "../../helpers/processes.js";
import { createFeature } from "../../../src/domains/features/feature-store.js";
import { gateWorkspace } from "../../helpers/gates.js";
import { signingKeyFixture } from "../../helpers/signing-key.js";
import { slowGit } from "../../helpers/slow-git.js";
import { SOAK } from "../../helpers/soak.js";

const REF = "refs/aop/anchors";
const GIT_ENV = { GIT_AUTHOR_NAME: "Ada", GIT_AUTHOR_EMAIL: "ada@example.com", GIT_COMMITTER_NAME: "Ada", GIT_COMMITTER_EMAIL: "ada@example.com", GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" };

function git(root: string, args: string[]): string {
  const r = spawnSync("git", args, { cwd: root, encoding: "utf8", env: { ...process.env, ...GIT_ENV } });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

const sizeOf = (note: string) => Number(note.split("\n")[1]);

/** Each feature's note sizes along the ref's history, oldest commit first. */
function historySizes(root: string): Map<string, number[]> {
  const sizes = new Map<string, number[]>();
  for (const commit of git(root, ["rev-list", "--reverse", REF]).trim().split("\n")) {
    for (const line of git(root, ["ls-tree", commit]).trim().split("\n")) {
      const [meta, name] = line.split("\t") as [string, string];
      const feature = name.replace(/\.note$/, "");
      sizes.set(feature, [...(sizes.get(feature) ?? []), sizeOf(git(root, ["cat-file", "blob", meta.split(" ")[2]!]))]);
    }
  }
  return sizes;
}

function newestAnchorNote(root: string, featureId: string): string {
  const lines = fs.readFileSync(path.join(root, ".aop/features", featureId, "evidence/anchors.jsonl"), "utf8").trim().split("\n");
  return (JSON.parse(lines.at(-1)!) as { note: string }).note;
}

describe.runIf(SOAK)("anchors on refs/aop/anchors under concurrency", () => {
  it("8 processes × 3 anchored gate runs on 2 features, through a slowed git: the ref ends at each newest note and never moves back", async () => {
    const features = ["feat_a", "feat_b"];
    const ws = await gateWorkspace();
    await createFeature(ws.layout, ws.clock, { feature_id: "feat_b" });
    fs.rmSync(path.join(ws.root, ".git"), { recursive: true });
    git(ws.root, ["init", "-q", "-b", "main"]);
    const key = signingKeyFixture();
    key.commitTo(ws.root);
    const slow = slowGit({ maxDelayMs: 150, log: true });
    const env = { AOP_SIGNING_KEY: key.file, ANCHOR_GIT: "1", ...GIT_ENV, ...slow.env };
    const workers = features.flatMap((f) => [0, 1, 2, 3].map(() => startWorker("anchorer.mjs", [ws.root, f, "3"], env)));
    for (const r of await Promise.all(workers.map((w) => w.done))) expect(r.code, r.stderr).toBe(0);
    const history = historySizes(ws.root);
    // The race happened: more compare-and-swaps were tried than landed.
    const commits = git(ws.root, ["rev-list", "--count", REF]).trim();
    expect(slow.calls().filter((c) => c === "update-ref").length).toBeGreaterThan(Number(commits));
    for (const f of features) {
      const newest = newestAnchorNote(ws.root, f);
      expect(sizeOf(newest)).toBe(12);
      expect(git(ws.root, ["show", `${REF}:${f}.note`]), f).toBe(newest);
      const sizes = history.get(f)!;
      expect(sizes, `${f}: ${sizes.join(" ")}`).toEqual([...sizes].sort((a, b) => a - b));
      expect(sizes.at(-1)).toBe(12);
    }
  }, 300_000);
});
