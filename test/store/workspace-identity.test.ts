// The workspace id (DESIGN §20): created once, kept, renewed for a copy, regenerated for an unusable file,
// never created where there is no workspace, never read or written through a link out of it — and two
// processes creating or renewing it at once end with one id.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import "../helpers/workers-env.js";
import { fixedClock } from "../../src/core/clock.js";
import { WorkspaceLayout } from "../../src/store/layout.js";
import { ensureWorkspaceIdentity, identityProblem, workspaceFingerprint, type WorkspaceIdentity } from "../../src/store/workspace-identity.js";
import { runWorkers } from "../helpers/processes.js";
import { readJson, tempDir, tempWorkspace } from "../helpers/tmp.js";

const clock = fixedClock("2026-05-01T10:00:00.000Z");

/** A workspace aop has written to (it has .aop/). */
function workspace(): WorkspaceLayout {
  const root = tempWorkspace();
  fs.mkdirSync(path.join(root, ".aop"));
  return new WorkspaceLayout(root);
}

function fileOf(ws: WorkspaceLayout): WorkspaceIdentity {
  return readJson<WorkspaceIdentity>(ws.workspaceIdentityFile);
}

function quiet(): { warn: (m: string) => void; warnings: string[] } {
  const warnings: string[] = [];
  return { warn: (m) => warnings.push(m), warnings };
}

describe("workspace identity", () => {
  it("is created on first need in .aop/workspace.json, then kept", async () => {
    const ws = workspace();
    const first = await ensureWorkspaceIdentity(ws, clock);
    expect(first.outcome).toBe("created");
    expect(first.identity).toEqual({ version: 1, workspace_id: expect.stringMatching(/^[0-9a-f]{32}$/), fingerprint: workspaceFingerprint(os.hostname(), fs.realpathSync(ws.root)), created_at: "2026-05-01T10:00:00.000Z" });
    expect(path.relative(ws.root, ws.workspaceIdentityFile)).toBe(path.join(".aop", "workspace.json"));
    expect(fileOf(ws)).toEqual(first.identity);
    expect(JSON.stringify(fileOf(ws))).not.toContain(os.hostname()); // only a hash of the host and path
    const again = await ensureWorkspaceIdentity(ws, fixedClock("2027-01-01T00:00:00.000Z"));
    expect(again).toEqual({ identity: first.identity, outcome: "kept", reason: null });
    expect(fs.readdirSync(ws.aopDir)).toEqual(["workspace.json"]); // the lock is gone
  });

  it("two workspaces get different ids", async () => {
    const [a, b] = await Promise.all([ensureWorkspaceIdentity(workspace(), clock), ensureWorkspaceIdentity(workspace(), clock)]);
    expect(a.identity.workspace_id).not.toBe(b.identity.workspace_id);
  });

  it("a workspace copied to another path gets a new id, keeping the old one as previous_id; the original keeps its own", async () => {
    const ws = workspace();
    const original = (await ensureWorkspaceIdentity(ws, clock)).identity;
    const copyRoot = path.join(tempDir(), "copy");
    fs.cpSync(ws.root, copyRoot, { recursive: true });
    const copy = new WorkspaceLayout(copyRoot);
    const renewed = await ensureWorkspaceIdentity(copy, clock);
    expect(renewed.outcome).toBe("renewed");
    expect(renewed.reason).toMatch(/copied or moved/);
    expect(renewed.identity.workspace_id).not.toBe(original.workspace_id);
    expect(renewed.identity.previous_id).toBe(original.workspace_id);
    expect(fileOf(copy)).toEqual(renewed.identity);
    expect((await ensureWorkspaceIdentity(copy, clock)).outcome).toBe("kept");
    expect(await ensureWorkspaceIdentity(ws, clock)).toMatchObject({ outcome: "kept", identity: original });
  });

  it("a workspace.json made on another host (same path) is renewed", async () => {
    const ws = workspace();
    const foreign: WorkspaceIdentity = { version: 1, workspace_id: "ab".repeat(16), fingerprint: workspaceFingerprint("another-host", fs.realpathSync(ws.root)), created_at: "2026-01-01T00:00:00.000Z" };
    fs.writeFileSync(ws.workspaceIdentityFile, JSON.stringify(foreign));
    const result = await ensureWorkspaceIdentity(ws, clock);
    expect(result).toMatchObject({ outcome: "renewed", identity: { previous_id: foreign.workspace_id } });
    expect(result.identity.workspace_id).not.toBe(foreign.workspace_id);
  });

  it("the same folder reached through a linked path is the same workspace", async () => {
    const ws = workspace();
    const id = (await ensureWorkspaceIdentity(ws, clock)).identity.workspace_id;
    const alias = path.join(tempDir(), "alias");
    fs.symlinkSync(ws.root, alias);
    expect(await ensureWorkspaceIdentity(new WorkspaceLayout(alias), clock)).toMatchObject({ outcome: "kept", identity: { workspace_id: id } });
  });

  it.each([
    ["not JSON", "{torn", /is not JSON/],
    ["empty", "", /is not JSON/],
    ["an array", "[]", /is not a JSON object/],
    ["no workspace_id", JSON.stringify({ version: 1, fingerprint: "sha256:" + "a".repeat(64), created_at: "2026-01-01T00:00:00.000Z" }), /no workspace_id/],
    ["an upper-case id", JSON.stringify({ version: 1, workspace_id: "AB".repeat(16), fingerprint: "sha256:" + "a".repeat(64), created_at: "2026-01-01T00:00:00.000Z" }), /no workspace_id/],
    ["over 64 KiB", " ".repeat(70 * 1024), /over the 64 KiB limit/],
  ])("a file that is %s is regenerated with a warning, never a crash", async (_name, text, why) => {
    const ws = workspace();
    fs.writeFileSync(ws.workspaceIdentityFile, text);
    const { warn, warnings } = quiet();
    const result = await ensureWorkspaceIdentity(ws, clock, { warn });
    expect(result.outcome).toBe("regenerated");
    expect(result.identity).not.toHaveProperty("previous_id");
    expect(identityProblem(fileOf(ws))).toBeNull();
    expect(fileOf(ws)).toEqual(result.identity);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(why);
    expect(warnings[0]).toMatch(/^\.aop\/workspace\.json .*; wrote a new workspace id/);
    expect((await ensureWorkspaceIdentity(ws, clock, { warn })).outcome).toBe("kept");
    expect(warnings).toHaveLength(1);
  });

  it("a FIFO in its place is replaced without blocking", async () => {
    const ws = workspace();
    execFileSync("mkfifo", [ws.workspaceIdentityFile]);
    const { warn, warnings } = quiet();
    expect((await ensureWorkspaceIdentity(ws, clock, { warn })).outcome).toBe("regenerated");
    expect(warnings[0]).toMatch(/is a FIFO/);
    expect(fs.lstatSync(ws.workspaceIdentityFile).isFile()).toBe(true);
  });

  it("is never created where aop has written nothing (no .aop/)", async () => {
    const root = tempWorkspace();
    await expect(ensureWorkspaceIdentity(new WorkspaceLayout(root), clock)).rejects.toMatchObject({ code: "workspace_not_found", hint: expect.stringContaining("aop init") });
    expect(fs.readdirSync(root)).toEqual([".git"]);
  });

  it("a workspace.json that is a link out of the workspace is refused, the outside left alone", async () => {
    const ws = workspace();
    const outside = path.join(tempDir(), "elsewhere.json");
    fs.writeFileSync(outside, "{torn");
    fs.symlinkSync(outside, ws.workspaceIdentityFile);
    await expect(ensureWorkspaceIdentity(ws, clock, quiet())).rejects.toMatchObject({ code: "path_outside_workspace" });
    expect(fs.readFileSync(outside, "utf8")).toBe("{torn");
  });

  it("a link that stays inside the workspace is read and written through", async () => {
    const ws = workspace();
    const inside = path.join(ws.root, "kept", "workspace.json");
    fs.mkdirSync(path.dirname(inside));
    fs.symlinkSync(inside, ws.workspaceIdentityFile); // dangling for now
    const created = await ensureWorkspaceIdentity(ws, clock);
    expect(created.outcome).toBe("created");
    expect(fs.lstatSync(ws.workspaceIdentityFile).isSymbolicLink()).toBe(true);
    expect(readJson(inside)).toEqual(created.identity);
    expect((await ensureWorkspaceIdentity(ws, clock)).outcome).toBe("kept");
  });
});

describe("workspace identity across processes", () => {
  const WORKERS = 6;

  async function race(root: string): Promise<{ id: string; outcome: string }[]> {
    const startAt = String(Date.now() + 1_500);
    const results = await runWorkers("workspace-identity.mjs", Array.from({ length: WORKERS }, () => [root, startAt]));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    return results.map((r) => JSON.parse(r.stdout) as { id: string; outcome: string });
  }

  it("processes creating it at once end with one id: one created it, the others read it back", async () => {
    const ws = workspace();
    const got = await race(ws.root);
    expect(new Set(got.map((g) => g.id)).size).toBe(1);
    expect(got.filter((g) => g.outcome === "created")).toHaveLength(1);
    expect(fileOf(ws).workspace_id).toBe(got[0]!.id);
  });

  it("processes meeting a copied workspace at once renew it once", async () => {
    const ws = workspace();
    const original = (await ensureWorkspaceIdentity(ws, clock)).identity.workspace_id;
    const copyRoot = path.join(tempDir(), "copy");
    fs.cpSync(ws.root, copyRoot, { recursive: true });
    const got = await race(copyRoot);
    expect(new Set(got.map((g) => g.id)).size).toBe(1);
    expect(got.filter((g) => g.outcome === "renewed")).toHaveLength(1);
    expect(readJson<WorkspaceIdentity>(path.join(copyRoot, ".aop", "workspace.json"))).toMatchObject({ workspace_id: got[0]!.id, previous_id: original });
  });
});
