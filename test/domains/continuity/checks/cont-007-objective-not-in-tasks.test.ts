import { describe, it } from "vitest";
import { check } from "../../../../src/domains/continuity/checks/cont-007-objective-not-in-tasks.js";
import { expectCase, stateMarkdown, type CheckCase } from "../../doctor/fixtures.js";

const cases: CheckCase[] = [
  { name: "skipped: no tasks.md and no openspec/", spec: {}, findings: [], ok: null },
  {
    name: "healthy: an unchecked tasks.md item names the objective",
    spec: { tasksMd: "# Tasks\n- [x] Set up CI\n- [ ] User authentication module (JWT)\n- [ ] Billing export\n" },
    findings: [],
    ok: /^Objective matches an active task in tasks\.md: "User authentication module \(JWT\)"$/,
  },
  {
    name: "broken: the matching item is already checked",
    spec: { tasksMd: "- [x] User authentication module\n- [ ] Billing export\n" },
    findings: [["info", /^Objective "Build the user authentication module" does not match any of the 1 active task entries in tasks\.md$/]],
  },
  { name: "broken: tasks.md has no open task", spec: { tasksMd: "- [x] everything\n" }, findings: [["info", /tasks\.md has no open task$/]] },
  {
    name: "broken: an unchecked item inside a code block is not a task",
    spec: { tasksMd: "```\n- [ ] User authentication module\n```\n" },
    findings: [["info", /has no open task/]],
  },
  { name: "healthy: an openspec change id names it", spec: { openspec: { "add-user-authentication": {} } }, findings: [], ok: /^Objective matches an active task in openspec\/changes\/add-user-authentication: "add user authentication"$/ },
  {
    name: "healthy: an openspec proposal title names it",
    spec: { openspec: { "feat-42": { "proposal.md": "# Change: Authentication module for users\n\n## Why\n..." } } },
    findings: [],
    ok: /^Objective matches an active task in openspec\/changes\/feat-42: "Authentication module for users"$/,
  },
  {
    name: "broken: only an archived openspec change matches",
    spec: { openspec: { archive: {}, "billing-export": { "proposal.md": "# Change: Billing CSV export" } } },
    findings: [["info", /does not match any of the 2 active task entries in openspec\/$/]],
  },
  {
    name: "broken: both sources exist and neither matches",
    spec: { tasksMd: "- [ ] Billing export\n", openspec: { "dark-mode": {} } },
    findings: [["info", /in tasks\.md or openspec\/$/]],
  },
  { name: "silent when the objective is None", spec: { state: stateMarkdown({ Objective: "None" }), tasksMd: "- [ ] Billing export\n" }, findings: [], ok: null },
];

describe(check.id, () => {
  it.each(cases)("$name", (c) => expectCase(check, c));
});
