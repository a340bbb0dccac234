import path from "node:path";
import { describe, it } from "vitest";
import { check } from "../../../../src/domains/continuity/checks/cont-002-state-file-stale.js";
import { writeFile } from "../../../helpers/tmp.js";
import { expectCase, HOUR, MINUTE, setAge, type CheckCase } from "../../doctor/fixtures.js";

/** A --transcripts folder beside the workspace, holding one transcript of the given age. */
function transcriptsDirWith(ageMs: number) {
  return (ws: { root: string }) => {
    const dir = path.join(path.dirname(ws.root), "transcripts");
    setAge(writeFile(dir, "nested/session-1.jsonl", "{}\n"), ageMs);
    return dir;
  };
}

const cases: CheckCase[] = [
  {
    name: "healthy: updated after the newest OpenClaw session",
    spec: { stateAgeMs: 5 * MINUTE, openclawSessions: [{ agent: "main", file: "a.jsonl", ageMs: 30 * MINUTE }] },
    findings: [],
    ok: /^CURRENT_STATE\.md is up to date \(last modified 5m ago, session ran 30m ago\)$/,
  },
  {
    name: "healthy: the session went on a few minutes after the last update (within the grace)",
    spec: { stateAgeMs: 8 * MINUTE, claudeSessions: [{ file: "s.jsonl", ageMs: 1 * MINUTE }] },
    findings: [],
    ok: /^CURRENT_STATE\.md is up to date \(last modified 8m ago, session ran 1m ago\)$/,
  },
  {
    name: "broken: an OpenClaw session ran after the last update",
    spec: { stateAgeMs: 2 * HOUR, openclawSessions: [{ agent: "main", file: "a.jsonl", ageMs: 30 * MINUTE }] },
    findings: [["warning", /^CURRENT_STATE\.md is stale \(last modified 2h ago, session ran 30m ago\)$/]],
  },
  {
    name: "broken: the newest of several agents' sessions wins",
    spec: {
      stateAgeMs: 3 * HOUR,
      openclawSessions: [
        { agent: "main", file: "old.jsonl", ageMs: 5 * HOUR },
        { agent: "work", file: "new.jsonl", ageMs: 1 * HOUR },
      ],
    },
    findings: [["warning", /session ran 1h ago/]],
  },
  {
    name: "broken: a Claude Code session of this workspace (current folder naming) ran after the update",
    spec: { stateAgeMs: 2 * HOUR, claudeSessions: [{ file: "s.jsonl", ageMs: 20 * MINUTE, slug: "alnum" }] },
    findings: [["warning", /session ran 20m ago/]],
  },
  {
    name: "broken: a Claude Code session under the documented folder naming (/ → -) counts too",
    spec: { stateAgeMs: 2 * HOUR, claudeSessions: [{ file: "s.jsonl", ageMs: 20 * MINUTE, slug: "slash" }] },
    findings: [["warning", /session ran 20m ago/]],
  },
  {
    name: "healthy: sessions.json and *.reset.* copies are not transcripts",
    spec: {
      stateAgeMs: 1 * HOUR,
      openclawSessions: [
        { agent: "main", file: "sessions.json", ageMs: 1 * MINUTE },
        { agent: "main", file: "abc.jsonl.reset.2026-06-01T11-59-00", ageMs: 1 * MINUTE },
        { agent: "main", file: "abc.reset.jsonl", ageMs: 1 * MINUTE },
        { agent: "main", file: "abc.jsonl", ageMs: 2 * HOUR },
      ],
    },
    findings: [],
    ok: /^CURRENT_STATE\.md is up to date \(last modified 1h ago, session ran 2h ago\)$/,
  },
  {
    name: "broken: --transcripts DIR holds a newer transcript (searched in subfolders)",
    spec: { stateAgeMs: 2 * HOUR },
    transcriptsDir: transcriptsDirWith(10 * MINUTE),
    findings: [["warning", /stale \(last modified 2h ago, session ran 10m ago\)/]],
  },
  {
    name: "healthy: --transcripts DIR replaces the OpenClaw and Claude Code locations",
    spec: { stateAgeMs: 2 * HOUR, openclawSessions: [{ agent: "main", file: "a.jsonl", ageMs: 1 * MINUTE }] },
    transcriptsDir: transcriptsDirWith(3 * HOUR),
    findings: [],
    ok: /^CURRENT_STATE\.md is up to date \(last modified 2h ago, session ran 3h ago\)$/,
  },
  {
    name: "fallback, healthy: no transcript anywhere and modified under 4 h ago",
    spec: { stateAgeMs: 3 * HOUR },
    findings: [],
    ok: /^CURRENT_STATE\.md is fresh \(last modified 3h ago; no session transcript found\)$/,
  },
  {
    name: "fallback, info: no transcript and modified over 4 h ago",
    spec: { stateAgeMs: 5 * HOUR },
    findings: [["info", /^CURRENT_STATE\.md last modified 5h ago \(no session transcript found to compare with\)$/]],
  },
  {
    name: "fallback, warning: no transcript and modified over 24 h ago",
    spec: { stateAgeMs: 30 * HOUR },
    findings: [["warning", /^CURRENT_STATE\.md is stale \(last modified 30h ago; no session transcript found to compare with\)$/]],
  },
  { name: "silent when there is no state file (CONT_001 reports it)", spec: { state: null }, findings: [], ok: null },
];

describe(check.id, () => {
  it.each(cases)("$name", (c) => expectCase(check, c));
});
