import { describe, it } from "vitest";
import { check } from "../../../../src/domains/continuity/checks/cont-003-section-missing.js";
import { expectCase, stateMarkdown, type CheckCase } from "../../doctor/fixtures.js";

const tolerantHeadings = [
  "# objective:",
  "Ship the parser",
  "## CURRENT STEP ##",
  "Parsing fences",
  "### Key Decisions :",
  "- none",
  "## **Next Action**",
  "Write tests",
  "##   Blockers   ",
  "None",
  "## Unsurfaced results",
  "None",
].join("\n");

// Setext headings: `Objective` over `===` is a level-1 heading, `Current Step` over `---` a level-2 one.
const setextHeadings = ["Objective", "=========", "Ship the parser", "", "Current Step", "------------", "Parsing fences", "", "Key Decisions", "---", "- none", "", "## Next Action", "Write tests", "", "Blockers", "===", "None", "", "Unsurfaced Results", "------------------", "None"].join("\n");

const cases: CheckCase[] = [
  { name: "healthy: all six sections", spec: {}, findings: [], ok: /^Template compliance: all sections present$/ },
  { name: "healthy: levels, case, closing #s, colons, emphasis and spacing are tolerated", spec: { state: tolerantHeadings }, findings: [], ok: /^Template compliance: all sections present$/ },
  { name: "healthy: setext headings (underlined with === or ---) are headings", spec: { state: setextHeadings }, findings: [], ok: /^Template compliance: all sections present$/ },
  {
    name: "broken: a --- after a blank line is a break, not an underline",
    spec: { state: setextHeadings.replace("Objective\n=========", "Objective\n\n=========").replace("Blockers\n===", "Blockers\n\n---") },
    findings: [
      ["warning", /## Objective$/],
      ["warning", /## Blockers$/],
    ],
  },
  { name: "broken: Objective missing", spec: { state: stateMarkdown({ Objective: null }) }, findings: [["warning", /^Missing section: ## Objective$/]] },
  {
    name: "broken: one warning per missing section, in protocol order",
    spec: { state: stateMarkdown({ "Next Action": null, Blockers: null }) },
    findings: [
      ["warning", /## Next Action$/],
      ["warning", /## Blockers$/],
    ],
  },
  {
    name: "broken: a heading inside a fenced code block is not a section",
    spec: { state: stateMarkdown({ Blockers: null, "Key Decisions": "```md\n## Blockers\nNone\n```" }) },
    findings: [["warning", /## Blockers$/]],
  },
  {
    name: "broken: an empty file has no sections",
    spec: { state: "" },
    findings: ["Objective", "Current Step", "Key Decisions", "Next Action", "Blockers", "Unsurfaced Results"].map((n) => ["warning", new RegExp(`## ${n}$`)] as ["warning", RegExp]),
  },
  {
    name: "broken: binary garbage is one finding, not six",
    spec: { state: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x1a, 0xff, 0xfe, 0x00, 0x00]) },
    findings: [["warning", /not text \(binary data\)/]],
  },
  {
    name: "huge file: only the start is read, and the appending is reported",
    spec: { state: stateMarkdown() + "\n## Log\n" + "- appended line instead of overwriting\n".repeat(10_000) },
    findings: [["info", /^CURRENT_STATE\.md is \d+ KiB; only the first 256 KiB were read$/]],
  },
  { name: "silent when there is no state file", spec: { state: null }, findings: [], ok: null },
];

describe(check.id, () => {
  it.each(cases)("$name", (c) => expectCase(check, c));
});
