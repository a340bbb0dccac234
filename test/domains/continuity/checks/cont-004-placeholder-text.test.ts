import { describe, it } from "vitest";
import { check } from "../../../../src/domains/continuity/checks/cont-004-placeholder-text.js";
import { expectCase, stateMarkdown, type CheckCase } from "../../doctor/fixtures.js";

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

const cases: CheckCase[] = [
  { name: "healthy: filled-in sections", spec: {}, findings: [], ok: /^No template placeholders left$/ },
  {
    name: "healthy: checkboxes, links, autolinks, footnotes and bracketed words inside code are content",
    spec: {
      state: stateMarkdown({
        "Current Step": "- [x] parser\n- [ ] printer\n[design notes](docs/design.md)\n<https://example.com/issue/7>\n[^1]\n[3]",
        "Key Decisions": "```\n[TODO] inside a code block is code\n```\n- `None` is a legal value",
      }),
    },
    findings: [],
    ok: /^No template placeholders left$/,
  },
  {
    name: "broken: the untouched template (three sections still hold their hints)",
    spec: { state: TEMPLATE },
    findings: [
      ["info", /^Section 'Objective' still contains placeholder text: \[One sentence: what are we trying to accomplish\]$/],
      ["info", /^Section 'Current Step' still contains placeholder text: \[What step are we on/],
      ["info", /^Section 'Next Action' still contains placeholder text: \[Exactly what should happen next\]$/],
    ],
  },
  {
    name: "broken: marker words and slots — [TODO], <fill in>, TBD, {{objective}}",
    spec: { state: stateMarkdown({ Objective: "{{objective}}", "Current Step": "Deploy <fill in> to staging", "Next Action": "- [TODO]", Blockers: "TBD" }) },
    findings: [
      ["info", /'Objective'.*\{\{objective\}\}/],
      ["info", /'Current Step'.*<fill in>/],
      ["info", /'Next Action'.*\[TODO\]/],
      ["info", /'Blockers'.*TBD/],
    ],
  },
  {
    name: "broken: a leftover hint under real content is still reported",
    spec: { state: stateMarkdown({ Objective: "Build the parser\n<describe the objective in one sentence>" }) },
    findings: [["info", /'Objective'.*<describe the objective in one sentence>/]],
  },
  { name: "silent when the file cannot be read as text", spec: { state: Uint8Array.from([0, 1, 2, 3]) }, findings: [], ok: null },
];

describe(check.id, () => {
  it.each(cases)("$name", (c) => expectCase(check, c));
});
