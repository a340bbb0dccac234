// aop keys init / list through the built CLI, with XDG_CONFIG_HOME and AOP_SIGNING_KEY in temp folders.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runJson } from "../../helpers/cli.js";
import { keyEnv, signingKeyFixture } from "../../helpers/signing-key.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";

type Init = { keyid: string; private_key_path: string; private_key_created: boolean; public_key_path: string; public_key_created: boolean };

describe("aop keys", () => {
  it("init makes an Ed25519 key: private 0600 under $XDG_CONFIG_HOME/aop/keys, public SPKI PEM in the workspace", () => {
    const root = tempWorkspace();
    const env = keyEnv();
    const r = runJson<Init>(["--root", root, "keys", "init"], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ private_key_created: true, public_key_created: true, public_key_path: `agentic/orchestrator/keys/${r.json.keyid}.pub` });
    expect(r.json.private_key_path).toBe(path.join(env.XDG_CONFIG_HOME!, "aop", "keys", `${r.json.keyid}.key`));
    expect(fs.statSync(r.json.private_key_path).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(r.json.private_key_path)).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(r.json.private_key_path, "utf8")).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(fs.readFileSync(path.join(root, r.json.public_key_path), "utf8")).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
  });

  it("init again reuses the key; --new makes another, and then signing needs AOP_SIGNING_KEY to choose", () => {
    const root = tempWorkspace();
    const env = keyEnv();
    const first = runJson<Init>(["--root", root, "keys", "init"], { env }).json;
    expect(runJson<Init>(["--root", root, "keys", "init"], { env }).json).toMatchObject({ keyid: first.keyid, private_key_created: false, public_key_created: false });
    const second = runJson<Init>(["--root", root, "keys", "init", "--new"], { env }).json;
    expect(second.keyid).not.toBe(first.keyid);
    const list = runJson<{ keys: { keyid: string }[]; signing_keyid: string | null; signing_problem: string | null }>(["--root", root, "keys", "list"], { env }).json;
    expect(list.keys.map((k) => k.keyid).sort()).toEqual([first.keyid, second.keyid].sort());
    expect(list).toMatchObject({ signing_keyid: null, signing_problem: expect.stringMatching(/^signing_key_ambiguous/) });
    const chosen = runJson<{ signing_keyid: string }>(["--root", root, "keys", "list"], { env: { ...env, AOP_SIGNING_KEY: second.private_key_path } }).json;
    expect(chosen.signing_keyid).toBe(second.keyid);
  });

  it("AOP_SIGNING_KEY: init creates the key there, or adopts the key already there", () => {
    const root = tempWorkspace();
    const file = path.join(tempDir(), "ci", "aop.key");
    const made = runJson<Init>(["--root", root, "keys", "init"], { env: { ...keyEnv(), AOP_SIGNING_KEY: file } }).json;
    expect(made).toMatchObject({ private_key_path: file, private_key_created: true });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const other = tempWorkspace();
    expect(runJson<Init>(["--root", other, "keys", "init"], { env: { ...keyEnv(), AOP_SIGNING_KEY: file } }).json).toMatchObject({ keyid: made.keyid, private_key_created: false, public_key_created: true });
  });

  it("a private key readable by others is refused, naming the fix and never the key", () => {
    const root = tempWorkspace();
    const key = signingKeyFixture();
    fs.chmodSync(key.file, 0o644);
    const r = runCli(["--root", root, "keys", "init"], { env: keyEnv({ key }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error signing_key_insecure: .*readable by others \(mode 0644\)/);
    expect(r.stderr).toContain(`hint: chmod 600 ${key.file}`);
    expect(r.stderr + r.stdout).not.toContain(key.privatePem.split("\n")[1]!);
  });

  it("a key file that is not an Ed25519 PKCS#8 key is refused without echoing it", () => {
    const root = tempWorkspace();
    const file = path.join(tempDir(), "bad.key");
    const secretish = "-----BEGIN PRIVATE KEY-----\nTUlJQ2VRSUJBREFOQmdrcWhraUc5dzBCQVFFRkFBU0NBbU13Z2dKZkFnRUFBb0dC\n-----END PRIVATE KEY-----\n";
    fs.writeFileSync(file, secretish, { mode: 0o600 });
    const r = runCli(["--root", root, "keys", "init"], { env: { ...keyEnv(), AOP_SIGNING_KEY: file } });
    expect(r.stderr).toMatch(/^error signing_key_invalid: /);
    expect(r.stderr + r.stdout).not.toContain("TUlJQ2VRSUJB");
  });

  it("init never puts a private key inside the workspace or a git work tree, and writes nothing when it refuses", () => {
    const root = tempWorkspace();
    const xdg = tempDir("aop-xdg-");
    const refused = (file: string, env: Record<string, string | undefined> = { ...keyEnv({ xdg }), AOP_SIGNING_KEY: file }) => {
      const r = runCli(["--root", root, "keys", "init"], { env });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toBe("");
      return r.stderr;
    };
    // The folder the docs tell people to commit.
    const inKeys = path.join(root, "agentic/orchestrator/keys/signing.key");
    expect(refused(inKeys)).toMatch(new RegExp(`^error signing_key_misplaced: AOP_SIGNING_KEY names ${inKeys}, inside the workspace ${root}: .*Nothing was written\n`));
    expect(refused(inKeys)).toContain(`hint: unset AOP_SIGNING_KEY to use the default ${path.join(xdg, "aop", "keys")}/`);
    expect(fs.readdirSync(root)).toEqual([".git"]);
    // Another repository (a linked worktree's `.git` is a file), however deep.
    const repo = tempDir("aop-repo-");
    fs.writeFileSync(path.join(repo, ".git"), "gitdir: /elsewhere/.git/worktrees/x\n");
    expect(refused(path.join(repo, "deep/er/aop.key"))).toMatch(new RegExp(`^error signing_key_misplaced: .* inside the git work tree ${repo}:`));
    expect(fs.readdirSync(repo)).toEqual([".git"]);
    // A link outside that leads into the workspace.
    const via = path.join(tempDir(), "via");
    fs.symlinkSync(root, via);
    expect(refused(path.join(via, "aop.key"))).toMatch(new RegExp(`AOP_SIGNING_KEY names ${path.join(via, "aop.key")} \\(really ${path.join(root, "aop.key")}\\), inside the workspace`));
    // The default keys folder when XDG_CONFIG_HOME lies in a work tree.
    fs.mkdirSync(path.join(repo, "config"));
    expect(refused("", { ...keyEnv({ xdg: path.join(repo, "config") }), AOP_SIGNING_KEY: undefined })).toMatch(/^error signing_key_misplaced: the keys folder .*\/config\/aop\/keys is inside the git work tree .*\nhint: set XDG_CONFIG_HOME/);
    expect(fs.readdirSync(path.join(repo, "config"))).toEqual([]);
    // A key already there is not adopted either (its public key is not written).
    fs.mkdirSync(path.join(root, ".aop"));
    const planted = signingKeyFixture(path.join(root, ".aop"));
    expect(refused(planted.file)).toMatch(/^error signing_key_misplaced: .*\nhint: move the key to the default /);
    expect(fs.existsSync(path.join(root, "agentic"))).toBe(false);
    expect(fs.readdirSync(xdg)).toEqual([]);
  });

  it("AOP_SIGNING_KEY naming a dangling link: signing_key_invalid naming the link, nothing created", () => {
    const root = tempWorkspace();
    const dir = tempDir();
    const link = path.join(dir, "aop.key");
    fs.symlinkSync(path.join(dir, "gone", "real.key"), link);
    const r = runCli(["--root", root, "keys", "init"], { env: { ...keyEnv(), AOP_SIGNING_KEY: link } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^error signing_key_invalid: signing key ${link} is a symbolic link to ${path.join(dir, "gone", "real.key")}, which does not exist`));
    expect(r.stderr).toContain(`hint: point AOP_SIGNING_KEY at the key file itself, or remove the link (rm ${link})`);
    expect(fs.readdirSync(dir)).toEqual(["aop.key"]);
    expect(fs.existsSync(path.join(root, "agentic"))).toBe(false);
  });

  it("init refuses a folder that is not a workspace (it creates none)", () => {
    const dir = tempDir();
    const r = runCli(["--root", dir, "keys", "init"], { env: keyEnv() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not an aop workspace/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("list reports a public key file that is misnamed or not a key, and trusts neither", () => {
    const root = tempWorkspace();
    const key = signingKeyFixture();
    const dir = path.join(root, "agentic/orchestrator/keys");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${"a".repeat(64)}.pub`), key.publicPem);
    fs.writeFileSync(path.join(dir, "notes.pub"), "hello");
    const list = runJson<{ keys: unknown[]; problems: { rel_path: string; reason: string }[] }>(["--root", root, "keys", "list"], { env: keyEnv() }).json;
    expect(list.keys).toEqual([]);
    expect(list.problems.map((p) => p.reason)).toEqual([expect.stringMatching(/not the key its name says/), expect.stringMatching(/not <keyid>\.pub/)]);
  });
});
