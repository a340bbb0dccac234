import { check } from "../../../../src/domains/continuity/checks/cont-003-section-missing.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { CONTINUITY_CASES, stateMarkdown } from "../../doctor/fixtures.js";

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

const ALL_PRESENT = /^Template compliance: all sections present$/;

testCheck(check, {
  ...CONTINUITY_CASES,
  valid: [
    { name: "all six sections", workspace: {}, ok: ALL_PRESENT },
    { name: "levels, case, closing #s, colons, emphasis and spacing are tolerated", workspace: { state: tolerantHeadings }, ok: ALL_PRESENT },
    { name: "setext headings (underlined with === or ---) are headings", workspace: { state: setextHeadings }, ok: ALL_PRESENT },
    { name: "a U+FFFD written as UTF-8 is text, not a decoding error", workspace: { state: stateMarkdown({ Objective: "Fix the \uFFFD shown in names" }) }, ok: ALL_PRESENT },
    { name: "silent when there is no state file", workspace: { state: null }, ok: null },
  ],
  invalid: [
    {
      name: "a --- after a blank line is a break, not an underline",
      workspace: { state: setextHeadings.replace("Objective\n=========", "Objective\n\n=========").replace("Blockers\n===", "Blockers\n\n---") },
      findings: [{ message: /## Objective$/ }, { message: /## Blockers$/ }],
    },
    { name: "Objective missing", workspace: { state: stateMarkdown({ Objective: null }) }, findings: [{ message: /^Missing section: ## Objective$/ }] },
    { name: "one warning per missing section, in protocol order", workspace: { state: stateMarkdown({ "Next Action": null, Blockers: null }) }, findings: [{ message: /## Next Action$/ }, { message: /## Blockers$/ }] },
    { name: "a heading inside a fenced code block is not a section", workspace: { state: stateMarkdown({ Blockers: null, "Key Decisions": "```md\n## Blockers\nNone\n```" }) }, findings: [{ message: /## Blockers$/ }] },
    {
      name: "an empty file has no sections",
      workspace: { state: "" },
      findings: ["Objective", "Current Step", "Key Decisions", "Next Action", "Blockers", "Unsurfaced Results"].map((n) => ({ message: new RegExp(`## ${n}$`) })),
    },
    {
      name: "text with bytes that are not UTF-8: one finding, the sections still read",
      workspace: { state: Buffer.concat([Buffer.from(stateMarkdown()), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])]) },
      findings: [{ message: /^CURRENT_STATE\.md is not valid UTF-8: some bytes could not be decoded/ }],
    },
    { name: "binary garbage is one finding, not six", workspace: { state: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x1a, 0xff, 0xfe, 0x00, 0x00]) }, findings: [{ message: /not text \(binary data\)/ }] },
    {
      name: "huge file: only the start is read, and the appending is reported",
      workspace: { state: stateMarkdown() + "\n## Log\n" + "- appended line instead of overwriting\n".repeat(10_000) },
      findings: [{ severity: "info", message: /^CURRENT_STATE\.md is \d+ KiB; only the first 256 KiB were read$/ }],
    },
  ],
});
