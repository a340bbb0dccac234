import { check } from "../../../../src/domains/continuity/checks/cont-005-unsurfaced-results.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { CONTINUITY_CASES, stateMarkdown } from "../../doctor/fixtures.js";

const NOTHING_PENDING = /^No unsurfaced results pending$/;

testCheck(check, {
  ...CONTINUITY_CASES,
  valid: [
    { name: "None", workspace: {}, ok: NOTHING_PENDING },
    ...["", "none", "NONE", "  None  "].map((body) => ({
      name: `${JSON.stringify(body)} says nothing is pending`,
      workspace: { state: stateMarkdown({ "Unsurfaced Results": body }) },
      ok: NOTHING_PENDING,
    })),
    {
      name: "a template with --- and notes after the last section (notes are not the section)",
      workspace: { state: stateMarkdown({}, "\n---\n\nNotes: yesterday's test run printed 3 failures in auth.spec.ts\n- follow up with the user\n") },
      ok: NOTHING_PENDING,
    },
    { name: "a *** break ends the section too", workspace: { state: stateMarkdown({}, "\n* * *\nScratch: benchmark numbers 120ms / 340ms\n") }, ok: NOTHING_PENDING },
    { name: "a following heading of the same level ends the section", workspace: { state: stateMarkdown({}, "\n## Notes\nThe deploy log had warnings\n") }, ok: NOTHING_PENDING },
    { name: "silent when the section is missing (CONT_003 reports it)", workspace: { state: stateMarkdown({ "Unsurfaced Results": null }) }, ok: null },
  ],
  invalid: [
    {
      name: "results the user has not seen",
      workspace: { state: stateMarkdown({ "Unsurfaced Results": "- Test run: 3 failures in auth.spec.ts\n- Benchmark: p95 went from 80 to 140 ms" }) },
      findings: [{ message: /^Unsurfaced Results section is not empty — review needed: "Test run: 3 failures in auth\.spec\.ts Benchmark/ }],
    },
    // DESIGN §7: empty or `None`, a warning otherwise — as the reference doctor reads it.
    ...["- None", "N/A", "None yet", "_None._", "(none)", "<!-- results the user has not seen go here -->", "[Anything finished the user has not seen]"].map((body) => ({
      name: `${JSON.stringify(body)} is not the protocol's None`,
      workspace: { state: stateMarkdown({ "Unsurfaced Results": body }) },
      findings: [{ message: /^Unsurfaced Results section is not empty — review needed: ".+"$/ }],
    })),
    { name: "a nested sub-heading belongs to the section", workspace: { state: stateMarkdown({ "Unsurfaced Results": "None\n\n### From the nightly job\nCoverage dropped to 71%" }) }, findings: [{ message: /Coverage dropped to 71%/ }] },
  ],
});
