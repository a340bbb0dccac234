import { check } from "../../../../src/domains/continuity/checks/cont-007-objective-not-in-tasks.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { CONTINUITY_CASES, stateMarkdown } from "../../doctor/fixtures.js";

testCheck(check, {
  ...CONTINUITY_CASES,
  valid: [
    { name: "skipped: no tasks.md and no openspec/", workspace: {}, ok: null },
    {
      name: "an unchecked tasks.md item names the objective",
      workspace: { tasksMd: "# Tasks\n- [x] Set up CI\n- [ ] User authentication module (JWT)\n- [ ] Billing export\n" },
      ok: /^Objective matches an active task in tasks\.md: "User authentication module \(JWT\)"$/,
    },
    { name: "an openspec change id names it", workspace: { openspec: { "add-user-authentication": {} } }, ok: /^Objective matches an active task in openspec\/changes\/add-user-authentication: "add user authentication"$/ },
    {
      name: "an openspec proposal title names it",
      workspace: { openspec: { "feat-42": { "proposal.md": "# Change: Authentication module for users\n\n## Why\n..." } } },
      ok: /^Objective matches an active task in openspec\/changes\/feat-42: "Authentication module for users"$/,
    },
    { name: "silent when the objective is None", workspace: { state: stateMarkdown({ Objective: "None" }), tasksMd: "- [ ] Billing export\n" }, ok: null },
  ],
  invalid: [
    { name: "the matching item is already checked", workspace: { tasksMd: "- [x] User authentication module\n- [ ] Billing export\n" }, findings: [{ message: /^Objective "Build the user authentication module" does not match any of the 1 active task entries in tasks\.md$/ }] },
    { name: "tasks.md has no open task", workspace: { tasksMd: "- [x] everything\n" }, findings: [{ message: /tasks\.md has no open task$/ }] },
    { name: "an unchecked item inside a code block is not a task", workspace: { tasksMd: "```\n- [ ] User authentication module\n```\n" }, findings: [{ message: /has no open task/ }] },
    { name: "only an archived openspec change matches", workspace: { openspec: { archive: {}, "billing-export": { "proposal.md": "# Change: Billing CSV export" } } }, findings: [{ message: /does not match any of the 2 active task entries in openspec\/$/ }] },
    { name: "both sources exist and neither matches", workspace: { tasksMd: "- [ ] Billing export\n", openspec: { "dark-mode": {} } }, findings: [{ message: /in tasks\.md or openspec\/$/ }] },
  ],
});
