// A refused call changes nothing (docs/hardening.md): `feature set-status` and `feature init` with an
// unreadable `.aop/features/index.json` are refused before their first write, and the refusal is not the
// operation's recorded answer — after the index is repaired, a retry with the same operation id applies it.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, runJson } from "../../helpers/cli.js";
import { plantFault } from "../../helpers/faults.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";

const INDEX = ".aop/features/index.json";

/** Ways to spoil the index, each with the code its refusal carries. */
const BAD_INDEX: { name: string; code: string; plant: (file: string, good: string) => Promise<void> | void }[] = [
  { name: "a UTF-8 BOM", code: "file_corrupt", plant: (file, good) => fs.writeFileSync(file, "\ufeff" + good) },
  { name: "garbage", code: "file_corrupt", plant: (file) => fs.writeFileSync(file, "\u0000\u0001garbage{") },
  { name: "JSON that is no index", code: "file_corrupt", plant: (file) => fs.writeFileSync(file, '{"active":"feat_a"}') },
  { name: "a FIFO", code: "not_a_regular_file", plant: (file) => plantFault("fifo", file) },
  { name: "a link out of the workspace", code: "path_outside_workspace", plant: (file, good) => { const outside = path.join(tempDir("aop-out-"), "index.json"); fs.writeFileSync(outside, good); fs.rmSync(file); fs.symlinkSync(outside, file); } },
  { name: "an oversized file", code: "file_too_large", plant: (file) => plantFault("oversized", file, 9 * 1024 * 1024) },
];

let template: string;

beforeAll(() => {
  template = tempWorkspace();
  expect(runCli(["--root", template, "feature", "init", "feat_a", "--title", "A"]).code).toBe(0);
}, 60_000);

function copy(): string {
  const root = tempWorkspace();
  fs.cpSync(template, root, { recursive: true });
  return root;
}

function repair(root: string, good: string): void {
  fs.rmSync(path.join(root, INDEX), { force: true });
  fs.writeFileSync(path.join(root, INDEX), good);
}

describe("a refused call changes nothing, and its retry after the repair runs it", () => {
  it.each(BAD_INDEX.map((b) => [b.name, b] as const))("feature set-status with an index that is %s", async (_name, bad) => {
    const root = copy();
    const state = path.join(root, ".aop/features/feat_a/state.md");
    const good = fs.readFileSync(path.join(root, INDEX), "utf8");
    const before = fs.readFileSync(state, "utf8");
    await bad.plant(path.join(root, INDEX), good);
    const args = ["--root", root, "feature", "set-status", "feat_a", "blocked", "--operation-id", "op-refused-0001"];

    const refused = runJson<{ error: { code: string } }>(args, { timeoutMs: 20_000 });
    expect(refused.code).toBe(1);
    expect(refused.json.error.code).toBe(bad.code);
    expect(fs.readFileSync(state, "utf8")).toBe(before);

    repair(root, good);
    const retry = runJson<{ feature: { status: string; version: number } }>(args);
    expect(retry.code, JSON.stringify(retry.json)).toBe(0);
    expect(retry.json.feature).toMatchObject({ status: "blocked", version: 2 });
    const index = JSON.parse(fs.readFileSync(path.join(root, INDEX), "utf8")) as { blocked: string[] };
    expect(index.blocked).toEqual(["feat_a"]);
    // The repaired workspace is consistent: the doctor finds no index/state disagreement.
    expect(runCli(["--root", root, "doctor", "--json"]).stdout).not.toContain("DRIFT_008");
  });

  it.each(BAD_INDEX.map((b) => [b.name, b] as const))("feature init with an index that is %s", async (_name, bad) => {
    const root = copy();
    const good = fs.readFileSync(path.join(root, INDEX), "utf8");
    await bad.plant(path.join(root, INDEX), good);
    const args = ["--root", root, "feature", "init", "feat_b", "--operation-id", "op-refused-0002"];

    const refused = runJson<{ error: { code: string } }>(args, { timeoutMs: 20_000 });
    expect(refused.code).toBe(1);
    expect(refused.json.error.code).toBe(bad.code);
    expect(fs.existsSync(path.join(root, ".aop/features/feat_b"))).toBe(false);

    repair(root, good);
    const retry = runJson<{ feature: { feature_id: string } }>(args);
    expect(retry.code, JSON.stringify(retry.json)).toBe(0);
    expect(retry.json.feature.feature_id).toBe("feat_b");
  });
});
