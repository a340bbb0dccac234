import path from "node:path";
import { describe, expect, it } from "vitest";
import { claudeProjectDirNames, expandUserPath, openclawStateDir } from "../../../src/domains/continuity/home-paths.js";
import { isTranscriptFile, newestTranscriptIn, transcriptSources } from "../../../src/domains/continuity/transcripts.js";
import { tempDir, writeFile } from "../../helpers/tmp.js";
import { setAge, NOW, HOUR } from "../doctor/fixtures.js";

describe("home paths", () => {
  it("OPENCLAW_STATE_DIR (with ~) wins over ~/.openclaw", () => {
    expect(openclawStateDir({ env: {}, homeDir: "/h" })).toBe("/h/.openclaw");
    expect(openclawStateDir({ env: { OPENCLAW_STATE_DIR: "~/claw" }, homeDir: "/h" })).toBe("/h/claw");
  });

  it("expandUserPath handles ~, ~/x and ${VAR}, and leaves other paths alone", () => {
    const home = { env: { X: "/x" }, homeDir: "/h" };
    expect([expandUserPath("~", home), expandUserPath("~/a", home), expandUserPath("${X}/b", home), expandUserPath("~other/c", home)]).toEqual(["/h", "/h/a", "/x/b", "~other/c"]);
  });

  it("Claude Code folder names: the documented / → - form and the every-non-alphanumeric form", () => {
    expect(claudeProjectDirNames("/home/u/my.project_1")).toEqual(["-home-u-my.project_1", "-home-u-my-project-1"]);
    expect(claudeProjectDirNames("/home/u/plain")).toEqual(["-home-u-plain"]);
  });
});

describe("transcript files", () => {
  it.each([
    ["abc.jsonl", true],
    ["sessions.json", false],
    ["abc.jsonl.reset.2026-01-01T00-00-00", false],
    ["abc.reset.jsonl", false],
    ["abc.jsonl.deleted.1", false],
    ["notes.md", false],
  ])("%j → %s", (name, expected) => expect(isTranscriptFile(name)).toBe(expected));
});

describe("transcriptSources / newestTranscriptIn", () => {
  it("--transcripts replaces the default locations", () => {
    expect(transcriptSources({ transcriptsDir: "/t", workspaceRoot: "/w", home: { env: {}, homeDir: "/h" } })).toEqual([{ kind: "transcripts-dir", dir: "/t" }]);
  });

  it("defaults: every OpenClaw agent, and the workspace's Claude Code project folder (CLAUDE_CONFIG_DIR honoured)", () => {
    const sources = transcriptSources({ workspaceRoot: "/w/p", home: { env: { CLAUDE_CONFIG_DIR: "/cc" }, homeDir: "/h" } });
    expect(sources).toEqual([
      { kind: "openclaw", dir: "/h/.openclaw/agents" },
      { kind: "claude-code", dir: "/cc/projects/-w-p" },
    ]);
  });

  it("the newest modification time wins across agents, and non-transcripts are ignored", () => {
    const state = tempDir("aop-oc-");
    setAge(writeFile(state, "agents/main/sessions/a.jsonl", "{}\n"), 3 * HOUR);
    setAge(writeFile(state, "agents/work/sessions/b.jsonl", "{}\n"), 1 * HOUR);
    setAge(writeFile(state, "agents/work/sessions/sessions.json", "{}"), 0);
    setAge(writeFile(state, "agents/work/sessions/c.jsonl.reset.x", "{}"), 0);
    const found = newestTranscriptIn({ kind: "openclaw", dir: path.join(state, "agents") });
    expect(found).toEqual({ file: path.join(state, "agents/work/sessions/b.jsonl"), mtimeMs: NOW - HOUR, kind: "openclaw" });
  });

  it("a --transcripts folder is searched in subfolders; a missing folder has none", () => {
    const dir = tempDir("aop-tr-");
    setAge(writeFile(dir, "x/y/deep.jsonl", "{}\n"), 2 * HOUR);
    setAge(writeFile(dir, "top.jsonl", "{}\n"), 5 * HOUR);
    expect(newestTranscriptIn({ kind: "transcripts-dir", dir })?.file).toBe(path.join(dir, "x/y/deep.jsonl"));
    expect(newestTranscriptIn({ kind: "transcripts-dir", dir: path.join(dir, "missing") })).toBeUndefined();
  });
});
