import { describe, it } from "vitest";
import { check } from "../../../../src/domains/continuity/checks/cont-001-state-file-missing.js";
import { expectCase, stateMarkdown, type CheckCase } from "../../doctor/fixtures.js";

const cases: CheckCase[] = [
  { name: "healthy: the state file exists", spec: {}, findings: [], ok: /^memory\/CURRENT_STATE\.md exists$/ },
  { name: "an empty state file still exists (other checks judge its content)", spec: { state: "" }, findings: [], ok: /^memory\/CURRENT_STATE\.md exists$/ },
  { name: "broken: no memory/CURRENT_STATE.md", spec: { state: null }, findings: [["critical", /^memory\/CURRENT_STATE\.md does not exist$/]] },
  { name: "broken: only an archive, no current state", spec: { state: null, archives: { "2026-05-01_10-00.md": stateMarkdown() } }, findings: [["critical", /does not exist/]] },
  { name: "broken: a folder where the state file should be", spec: { stateIsDirectory: true }, findings: [["critical", /is a folder, not a regular file: not read \[not_a_regular_file\]$/]] },
];

describe(check.id, () => {
  it.each(cases)("$name", (c) => expectCase(check, c));
});
