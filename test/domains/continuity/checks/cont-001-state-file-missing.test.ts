import { check } from "../../../../src/domains/continuity/checks/cont-001-state-file-missing.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { CONTINUITY_CASES, stateMarkdown } from "../../doctor/fixtures.js";

testCheck(check, {
  ...CONTINUITY_CASES,
  valid: [
    { name: "the state file exists", workspace: {}, ok: /^memory\/CURRENT_STATE\.md exists$/ },
    { name: "an empty state file still exists (other checks judge its content)", workspace: { state: "" }, ok: /^memory\/CURRENT_STATE\.md exists$/ },
  ],
  invalid: [
    { name: "no memory/CURRENT_STATE.md", workspace: { state: null }, findings: [{ severity: "critical", message: /^memory\/CURRENT_STATE\.md does not exist$/ }] },
    { name: "only an archive, no current state", workspace: { state: null, archives: { "2026-05-01_10-00.md": stateMarkdown() } }, findings: [{ severity: "critical", message: /does not exist/ }] },
    { name: "a folder where the state file should be", workspace: { stateIsDirectory: true }, findings: [{ severity: "critical", message: /is a folder, not a regular file: not read \[not_a_regular_file\]$/ }] },
  ],
});
