import path from "node:path";
import { check } from "../../../../src/domains/continuity/checks/cont-002-state-file-stale.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { writeFile } from "../../../helpers/tmp.js";
import { CONTINUITY_CASES, HOUR, MINUTE, setAge } from "../../doctor/fixtures.js";

/** A --transcripts folder beside the workspace, holding one transcript of the given age. */
function transcriptsDirWith(ageMs: number) {
  return (ws: { root: string }) => {
    const dir = path.join(path.dirname(ws.root), "transcripts");
    setAge(writeFile(dir, "nested/session-1.jsonl", "{}\n"), ageMs);
    return dir;
  };
}

testCheck(check, {
  ...CONTINUITY_CASES,
  valid: [
    {
      name: "updated after the newest OpenClaw session",
      workspace: { stateAgeMs: 5 * MINUTE, openclawSessions: [{ agent: "main", file: "a.jsonl", ageMs: 30 * MINUTE }] },
      ok: /^CURRENT_STATE\.md is up to date \(last modified 5m ago, session ran 30m ago\)$/,
    },
    {
      name: "the session went on a few minutes after the last update (within the grace)",
      workspace: { stateAgeMs: 8 * MINUTE, claudeSessions: [{ file: "s.jsonl", ageMs: 1 * MINUTE }] },
      ok: /^CURRENT_STATE\.md is up to date \(last modified 8m ago, session ran 1m ago\)$/,
    },
    {
      name: "sessions.json and *.reset.* copies are not transcripts",
      workspace: {
        stateAgeMs: 1 * HOUR,
        openclawSessions: [
          { agent: "main", file: "sessions.json", ageMs: 1 * MINUTE },
          { agent: "main", file: "abc.jsonl.reset.2026-06-01T11-59-00", ageMs: 1 * MINUTE },
          { agent: "main", file: "abc.reset.jsonl", ageMs: 1 * MINUTE },
          { agent: "main", file: "abc.jsonl", ageMs: 2 * HOUR },
        ],
      },
      ok: /^CURRENT_STATE\.md is up to date \(last modified 1h ago, session ran 2h ago\)$/,
    },
    {
      name: "--transcripts DIR replaces the OpenClaw and Claude Code locations",
      workspace: { stateAgeMs: 2 * HOUR, openclawSessions: [{ agent: "main", file: "a.jsonl", ageMs: 1 * MINUTE }], transcriptsDir: transcriptsDirWith(3 * HOUR) },
      ok: /^CURRENT_STATE\.md is up to date \(last modified 2h ago, session ran 3h ago\)$/,
    },
    { name: "fallback: no transcript anywhere and modified under 4 h ago", workspace: { stateAgeMs: 3 * HOUR }, ok: /^CURRENT_STATE\.md is fresh \(last modified 3h ago; no session transcript found\)$/ },
    { name: "silent when there is no state file (CONT_001 reports it)", workspace: { state: null }, ok: null },
  ],
  invalid: [
    {
      name: "an OpenClaw session ran after the last update",
      workspace: { stateAgeMs: 2 * HOUR, openclawSessions: [{ agent: "main", file: "a.jsonl", ageMs: 30 * MINUTE }] },
      findings: [{ message: /^CURRENT_STATE\.md is stale \(last modified 2h ago, session ran 30m ago\)$/ }],
    },
    {
      name: "the newest of several agents' sessions wins",
      workspace: {
        stateAgeMs: 3 * HOUR,
        openclawSessions: [
          { agent: "main", file: "old.jsonl", ageMs: 5 * HOUR },
          { agent: "work", file: "new.jsonl", ageMs: 1 * HOUR },
        ],
      },
      findings: [{ message: /session ran 1h ago/ }],
    },
    { name: "a Claude Code session of this workspace (current folder naming) ran after the update", workspace: { stateAgeMs: 2 * HOUR, claudeSessions: [{ file: "s.jsonl", ageMs: 20 * MINUTE, slug: "alnum" }] }, findings: [{ message: /session ran 20m ago/ }] },
    { name: "a Claude Code session under the documented folder naming (/ → -) counts too", workspace: { stateAgeMs: 2 * HOUR, claudeSessions: [{ file: "s.jsonl", ageMs: 20 * MINUTE, slug: "slash" }] }, findings: [{ message: /session ran 20m ago/ }] },
    { name: "--transcripts DIR holds a newer transcript (searched in subfolders)", workspace: { stateAgeMs: 2 * HOUR, transcriptsDir: transcriptsDirWith(10 * MINUTE) }, findings: [{ message: /stale \(last modified 2h ago, session ran 10m ago\)/ }] },
    { name: "fallback, info: no transcript and modified over 4 h ago", workspace: { stateAgeMs: 5 * HOUR }, findings: [{ severity: "info", message: /^CURRENT_STATE\.md last modified 5h ago \(no session transcript found to compare with\)$/ }] },
    { name: "fallback, warning: no transcript and modified over 24 h ago", workspace: { stateAgeMs: 30 * HOUR }, findings: [{ message: /^CURRENT_STATE\.md is stale \(last modified 30h ago; no session transcript found to compare with\)$/ }] },
  ],
});
