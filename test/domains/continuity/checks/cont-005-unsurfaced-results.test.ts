import { describe, it } from "vitest";
import { check } from "../../../../src/domains/continuity/checks/cont-005-unsurfaced-results.js";
import { expectCase, stateMarkdown, type CheckCase } from "../../doctor/fixtures.js";

const cases: CheckCase[] = [
  { name: "healthy: None", spec: {}, findings: [], ok: /^No unsurfaced results pending$/ },
  ...["", "none", "- None", "N/A", "_None._", "(none)", "<!-- results the user has not seen go here -->"].map((body) => ({
    name: `healthy: ${JSON.stringify(body)} says nothing is pending`,
    spec: { state: stateMarkdown({ "Unsurfaced Results": body }) },
    findings: [],
    ok: /^No unsurfaced results pending$/,
  })),
  {
    name: "healthy: a template with --- and notes after the last section (notes are not the section)",
    spec: { state: stateMarkdown({}, "\n---\n\nNotes: yesterday's test run printed 3 failures in auth.spec.ts\n- follow up with the user\n") },
    findings: [],
    ok: /^No unsurfaced results pending$/,
  },
  {
    name: "healthy: a *** break ends the section too",
    spec: { state: stateMarkdown({}, "\n* * *\nScratch: benchmark numbers 120ms / 340ms\n") },
    findings: [],
    ok: /^No unsurfaced results pending$/,
  },
  {
    name: "healthy: a following heading of the same level ends the section",
    spec: { state: stateMarkdown({}, "\n## Notes\nThe deploy log had warnings\n") },
    findings: [],
    ok: /^No unsurfaced results pending$/,
  },
  {
    name: "broken: results the user has not seen",
    spec: { state: stateMarkdown({ "Unsurfaced Results": "- Test run: 3 failures in auth.spec.ts\n- Benchmark: p95 went from 80 to 140 ms" }) },
    findings: [["warning", /^Unsurfaced Results section is not empty — review needed: "Test run: 3 failures in auth\.spec\.ts Benchmark/]],
  },
  {
    name: "broken: a nested sub-heading belongs to the section",
    spec: { state: stateMarkdown({ "Unsurfaced Results": "None\n\n### From the nightly job\nCoverage dropped to 71%" }) },
    findings: [["warning", /Coverage dropped to 71%/]],
  },
  { name: "silent when the section is missing (CONT_003 reports it)", spec: { state: stateMarkdown({ "Unsurfaced Results": null }) }, findings: [], ok: null },
];

describe(check.id, () => {
  it.each(cases)("$name", (c) => expectCase(check, c));
});
