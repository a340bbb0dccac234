// What an everyday command loads (docs/performance.md, "What ran before the command's own work"): no
// built-in module its run does not use. node:crypto costs some 4 ms of a cold start, node:child_process
// 3 (with net and dgram), net 2 (process.stderr on a pipe creates it), perf_hooks 1 (the global
// `performance`): each was once loaded by one of these commands without being used. And the hook's tool
// event reads no chunk of its bundle where the policy's snapshot answers (the loader was once read anyway).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { CLI_BIN } from "../../helpers/paths.js";
import { tempDir, tempWorkspace } from "../../helpers/tmp.js";

let root: string;
let preload: string;

/**
 * The built-in modules `aop <args>` loaded, from process.moduleLoadList at exit; its output discarded
 * (as the bench runs it) or read through a pipe (as an agent does), and its stderr a pipe.
 */
function builtinsLoaded(args: string[], stdout: "ignore" | "pipe" = "ignore"): string[] {
  const out = path.join(tempDir("aop-loads-"), "loaded.json");
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: "", AOP_RUN_ID: "run:reader", LOADS_OUT: out };
  delete env.AOP_ROOT;
  const r = spawnSync(process.execPath, ["-r", preload, CLI_BIN, ...args, "--root", root], { cwd: root, env, encoding: "utf8", stdio: ["ignore", stdout, "pipe"] });
  expect(r.status, r.stderr).toBe(0);
  if (stdout === "pipe") expect(r.stdout.length).toBeGreaterThan(0);
  const loaded = JSON.parse(fs.readFileSync(out, "utf8")) as string[];
  return loaded.filter((m) => m.startsWith("NativeModule ")).map((m) => m.slice("NativeModule ".length));
}

beforeAll(() => {
  root = tempWorkspace();
  preload = path.join(tempDir("aop-preload-"), "loads.cjs");
  fs.writeFileSync(preload, 'process.on("exit", () => require("node:fs").writeFileSync(process.env.LOADS_OUT, JSON.stringify(process.moduleLoadList)));\n');
  const env = { AOP_RUN_ID: "run:writer" };
  for (const args of [["init"], ["feature", "init", "feat_login", "--title", "Login page"], ["gates", "run", "--feature-id", "feat_login", "--mode", "fast"]]) {
    const r = runCli([...args, "--root", root], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
  }
}, 60_000);

describe("an everyday command loads no built-in module it does not use", () => {
  it("the replay page: not the time-travel or search domains' child_process, nor perf_hooks or crypto", () => {
    const loaded = builtinsLoaded(["replay", "--run-id", "run:writer", "--limit", "20"]);
    for (const m of ["child_process", "net", "perf_hooks", "crypto"]) expect(loaded).not.toContain(m);
  });

  it("run status and feature list: not crypto (a run id is made only by run.start) nor perf_hooks (the lock's clock)", () => {
    for (const args of [["run", "status"], ["feature", "list"]]) {
      const loaded = builtinsLoaded(args);
      for (const m of ["crypto", "perf_hooks", "child_process", "net"]) expect(loaded, args.join(" ")).not.toContain(m);
    }
  });

  it("output read through a pipe, as an agent reads it: not net nor the stream modules of process.stdout", () => {
    for (const args of [["checkpoint", "next"], ["feature", "list"], ["replay", "--run-id", "run:writer", "--limit", "20"]]) {
      const loaded = builtinsLoaded(args, "pipe");
      for (const m of ["net", "stream", "internal/streams/writable"]) expect(loaded, args.join(" ")).not.toContain(m);
    }
  });

  it("the hook's SessionStart answer read through a pipe, as Claude Code reads it: not net nor the stream modules of process.stdout", () => {
    const out = path.join(tempDir("aop-loads-"), "loaded.json");
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: "", LOADS_OUT: out, CLAUDE_PROJECT_DIR: root };
    delete env.AOP_ROOT;
    const event = { session_id: "sess-loads", transcript_path: path.join(root, "t.jsonl"), cwd: root, hook_event_name: "SessionStart", source: "startup" };
    const r = spawnSync(process.execPath, ["-r", preload, CLI_BIN, "hook", "claude"], { cwd: root, env, input: JSON.stringify(event), encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: expect.stringContaining("aop-continuity orientation") } });
    const loaded = (JSON.parse(fs.readFileSync(out, "utf8")) as string[]).filter((m) => m.startsWith("NativeModule ")).map((m) => m.slice("NativeModule ".length));
    for (const m of ["net", "stream", "internal/streams/writable"]) expect(loaded).not.toContain(m);
  });

  it("the doctor: not child_process nor net (every domain's tools load for DRIFT_003; none of them runs a process here)", () => {
    const loaded = builtinsLoaded(["doctor"]);
    for (const m of ["child_process", "net"]) expect(loaded).not.toContain(m);
  });

  it("evidence verify: not child_process (git runs only for a git anchor) nor net (stderr is asked for only to show progress)", () => {
    const loaded = builtinsLoaded(["evidence", "verify", "--feature-id", "feat_login"]);
    for (const m of ["child_process", "net", "perf_hooks"]) expect(loaded).not.toContain(m);
  });
});

describe("the hook and the doctor read the config loaders only when the snapshots do not answer", () => {
  it("in a workspace aop init made (policy.yaml, gates.yaml): a tool event reads no chunk, a SessionStart nor the doctor the loaders or the YAML parser", () => {
    const chunkPreload = path.join(tempDir("aop-preload-"), "chunks.cjs");
    // Chunks are read through fs.openSync (the vm loader) or required (Node's compile cache, where the package folder cannot be written).
    fs.writeFileSync(
      chunkPreload,
      [
        'const fs = require("node:fs"); const seen = new Set(); const open = fs.openSync;',
        'fs.openSync = function (file, ...rest) { if (typeof file === "string" && file.endsWith(".chunk.cjs")) seen.add(file); return open.call(this, file, ...rest); };',
        'process.on("exit", () => { for (const f of Object.keys(require.cache)) if (f.endsWith(".chunk.cjs")) seen.add(f); fs.writeFileSync(process.env.LOADS_OUT, JSON.stringify([...seen])); });',
      ].join("\n"),
    );
    const base = { session_id: "sess-chunks", transcript_path: path.join(root, "t.jsonl"), cwd: root };
    const toolEvent = (n: number) => ({ ...base, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "true" }, tool_response: { stdout: "", stderr: "", interrupted: false }, tool_use_id: `toolu_chunks_${n}` });
    const chunksRead = (event: object): string[] => {
      const out = path.join(tempDir("aop-loads-"), "chunks.json");
      const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: "", LOADS_OUT: out, CLAUDE_PROJECT_DIR: root };
      delete env.AOP_ROOT;
      const r = spawnSync(process.execPath, ["-r", chunkPreload, CLI_BIN, "hook", "claude"], { cwd: root, env, input: JSON.stringify(event), encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      return (JSON.parse(fs.readFileSync(out, "utf8")) as string[]).map((f) => path.basename(f));
    };
    expect(fs.existsSync(path.join(root, "agentic", "orchestrator", "policy.yaml"))).toBe(true);
    chunksRead(toolEvent(1)); // keeps the snapshot, if no command did yet
    expect(chunksRead(toolEvent(2))).toEqual([]);
    // The orientation and the doctor's critical checks take the policy from the snapshot too.
    // The orientation and the doctor's critical checks (DRIFT_002 reads gates.yaml) take the policy and
    // gates.yaml from their snapshots too, once a first start kept gates.yaml's.
    const sessionStart = { ...base, hook_event_name: "SessionStart", source: "startup" };
    chunksRead(sessionStart);
    const atStart = chunksRead(sessionStart);
    expect(atStart).toContain("session-context.chunk.cjs");
    for (const chunk of ["policy-loader.chunk.cjs", "yaml.chunk.cjs", "config__gates.chunk.cjs"]) expect(atStart).not.toContain(chunk);
    expect(fs.existsSync(path.join(root, ".aop", "runtime", "gates.snapshot.json"))).toBe(true);
    // `aop doctor`: DRIFT_002 and DRIFT_014 read gates.yaml and policy.yaml through the same snapshots.
    const doctorChunks = (): string[] => {
      const out = path.join(tempDir("aop-loads-"), "chunks.json");
      const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: "", LOADS_OUT: out, AOP_RUN_ID: "run:reader" };
      delete env.AOP_ROOT;
      const r = spawnSync(process.execPath, ["-r", chunkPreload, CLI_BIN, "doctor", "--root", root], { cwd: root, env, encoding: "utf8" });
      expect(r.status, r.stderr).toBe(0);
      return (JSON.parse(fs.readFileSync(out, "utf8")) as string[]).map((f) => path.basename(f));
    };
    const doctor = doctorChunks();
    expect(doctor).toContain("doctor.chunk.cjs");
    for (const chunk of ["policy-loader.chunk.cjs", "yaml.chunk.cjs", "config__gates.chunk.cjs"]) expect(doctor).not.toContain(chunk);
  });
});
