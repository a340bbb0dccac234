import { check } from "../../../../src/domains/continuity/checks/cont-004-placeholder-text.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { CONTINUITY_CASES, stateMarkdown } from "../../doctor/fixtures.js";

// The memory-continuity template as shipped, before an agent fills it in.
const TEMPLATE = [
  "# Current State",
  "> Last updated: [ISO timestamp]",
  "",
  "## Objective",
  "[One sentence: what are we trying to accomplish]",
  "",
  "## Current Step",
  "[What step are we on, what was the last thing completed]",
  "",
  "## Key Decisions",
  "- None yet",
  "",
  "## Next Action",
  "[Exactly what should happen next]",
  "",
  "## Blockers",
  "None",
  "",
  "## Unsurfaced Results",
  "None",
  "",
].join("\n");

testCheck(check, {
  ...CONTINUITY_CASES,
  valid: [
    { name: "filled-in sections", workspace: {}, ok: /^No template placeholders left$/ },
    {
      name: "checkboxes, links, autolinks, footnotes and bracketed words inside code are content",
      workspace: {
        state: stateMarkdown({
          "Current Step": "- [x] parser\n- [ ] printer\n[design notes](docs/design.md)\n<https://example.com/issue/7>\n[^1]\n[3]",
          "Key Decisions": "```\n[TODO] inside a code block is code\n```\n- `None` is a legal value",
        }),
      },
      ok: /^No template placeholders left$/,
    },
    { name: "silent when the file cannot be read as text", workspace: { state: Uint8Array.from([0, 1, 2, 3]) }, ok: null },
  ],
  invalid: [
    {
      name: "the untouched template (three sections still hold their hints)",
      workspace: { state: TEMPLATE },
      findings: [
        { message: /^Section 'Objective' still contains placeholder text: \[One sentence: what are we trying to accomplish\]$/ },
        { message: /^Section 'Current Step' still contains placeholder text: \[What step are we on/ },
        { message: /^Section 'Next Action' still contains placeholder text: \[Exactly what should happen next\]$/ },
      ],
    },
    {
      name: "marker words and slots — [TODO], <fill in>, TBD, {{objective}}",
      workspace: { state: stateMarkdown({ Objective: "{{objective}}", "Current Step": "Deploy <fill in> to staging", "Next Action": "- [TODO]", Blockers: "TBD" }) },
      findings: [{ message: /'Objective'.*\{\{objective\}\}/ }, { message: /'Current Step'.*<fill in>/ }, { message: /'Next Action'.*\[TODO\]/ }, { message: /'Blockers'.*TBD/ }],
    },
    { name: "a leftover hint under real content is still reported", workspace: { state: stateMarkdown({ Objective: "Build the parser\n<describe the objective in one sentence>" }) }, findings: [{ message: /'Objective'.*<describe the objective in one sentence>/ }] },
  ],
});
