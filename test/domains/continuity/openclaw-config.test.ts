import path from "node:path";
import { describe, expect, it } from "vitest";
import { readOpenClawWorkspaces, resolveOpenClawWorkspaces } from "../../../src/domains/continuity/openclaw-config.js";
import { tempDir, writeFile } from "../../helpers/tmp.js";

const home = { env: {}, homeDir: "/home/u" };
const state = "/home/u/.openclaw";
const paths = (config: unknown, h = home) => resolveOpenClawWorkspaces(config, state, h).workspaces.map((w) => [w.path, w.agentId, w.configured]);

describe("resolveOpenClawWorkspaces", () => {
  it("no config: the default workspace under the state dir, derived", () => {
    expect(paths({})).toEqual([["/home/u/.openclaw/workspace", null, false]]);
  });

  it("agents.defaults.workspace with ~ expansion is the configured default", () => {
    expect(paths({ agents: { defaults: { workspace: "~/ws/main" } } })).toEqual([["/home/u/ws/main", null, true]]);
  });

  it("the legacy agent.workspace, then $OPENCLAW_WORKSPACE_DIR, name the default when agents.defaults does not", () => {
    expect(paths({ agent: { workspace: "/srv/claw" } })).toEqual([["/srv/claw", null, true]]);
    expect(paths({}, { env: { OPENCLAW_WORKSPACE_DIR: "/data/ws" }, homeDir: "/home/u" })).toEqual([["/data/ws", null, true]]);
  });

  it("a sole agent without a workspace uses the default one", () => {
    expect(paths({ agents: { list: [{ id: "main" }] } })).toEqual([["/home/u/.openclaw/workspace", "main", false]]);
  });

  it("several agents: own workspace, else <defaults.workspace>/<id> or <state>/workspace-<id>", () => {
    expect(paths({ agents: { list: [{ id: "main", workspace: "~/.openclaw/workspace" }, { id: "work" }] } })).toEqual([
      ["/home/u/.openclaw/workspace", "main", true],
      ["/home/u/.openclaw/workspace-work", "work", false],
    ]);
    expect(paths({ agents: { defaults: { workspace: "/ws" }, list: [{ id: "a" }, { id: "b", workspace: "/elsewhere/b" }] } })).toEqual([
      ["/ws", null, true],
      ["/ws/a", "a", false],
      ["/elsewhere/b", "b", true],
    ]);
  });

  it("agents.entries.<id> is read like agents.list, and ${VAR} is substituted", () => {
    const h = { env: { PROJECTS: "/p" }, homeDir: "/home/u" };
    expect(paths({ agents: { entries: { coder: { workspace: "${PROJECTS}/coder" }, main: {} } } }, h)).toEqual([
      ["/home/u/.openclaw/workspace", null, false],
      ["/p/coder", "coder", true],
      ["/home/u/.openclaw/workspace-main", "main", false],
    ]);
  });

  it("each agent's own sessions folder goes with its workspace", () => {
    const { workspaces } = resolveOpenClawWorkspaces({ agents: { list: [{ id: "main" }, { id: "work", workspace: "/w" }] } }, state, home);
    expect(workspaces.find((w) => w.path === "/w")!.sessionsDir).toBe(path.join(state, "agents", "work", "sessions"));
    expect(workspaces.find((w) => w.agentId === null)!.sessionsDir).toBeUndefined();
  });

  it("wrong types and unsafe ids are problems; the valid parts are still used", () => {
    const result = resolveOpenClawWorkspaces({ agents: { list: [{ id: "ok", workspace: "/ok" }, { id: "../escape" }, { workspace: 7 }, "x"], defaults: [] } }, state, home);
    expect(result.workspaces.map((w) => w.path)).toEqual(["/home/u/.openclaw/workspace", "/ok"]);
    expect(result.problems).toEqual([
      "agents.defaults must be an object (got array)",
      expect.stringContaining('agents.list[1]: agent id "../escape"'),
      "agents.list[2].id is missing",
      "agents.list[3] must be an object (got string)",
    ]);
  });
});

describe("readOpenClawWorkspaces", () => {
  function stateDirWith(contents?: string | Uint8Array) {
    const dir = tempDir("aop-openclaw-");
    if (contents !== undefined) writeFile(dir, "openclaw.json", contents);
    return { env: { OPENCLAW_STATE_DIR: dir }, homeDir: "/nonexistent-home", dir };
  }

  it("reads JSON5: comments, unquoted keys, trailing commas", async () => {
    const h = stateDirWith("// my config\n{ agents: { list: [ { id: 'main', workspace: '/srv/main', }, ], }, }\n");
    const result = await readOpenClawWorkspaces(h);
    expect(result.problems).toEqual([]);
    expect(result.workspaces.map((w) => w.path)).toEqual([path.join(h.dir, "workspace"), "/srv/main"]);
  });

  it("a missing config is not a problem: the default workspace is used", async () => {
    const h = stateDirWith();
    const result = await readOpenClawWorkspaces(h);
    expect(result).toMatchObject({ configFound: false, problems: [] });
    expect(result.workspaces.map((w) => w.path)).toEqual([path.join(h.dir, "workspace")]);
  });

  it("unparseable JSON5 is a problem naming the position, never a throw", async () => {
    const result = await readOpenClawWorkspaces(stateDirWith("{ agents: { list: [ }"));
    expect(result.workspaces).toEqual([]);
    expect(result.problems).toEqual([expect.stringMatching(/^is not valid JSON5: .*at 1:\d+/)]);
  });

  it("binary garbage is a problem", async () => {
    const result = await readOpenClawWorkspaces(stateDirWith(Uint8Array.from([0x7b, 0x00, 0xff, 0x7d])));
    expect(result.problems).toEqual(["is not text (binary data)"]);
  });

  it("a top level that is not an object is a problem", async () => {
    const result = await readOpenClawWorkspaces(stateDirWith("[1, 2]"));
    expect(result.problems).toEqual(["the top level must be an object (got array)"]);
  });
});
