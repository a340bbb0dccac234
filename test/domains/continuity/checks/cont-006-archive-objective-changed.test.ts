import { check } from "../../../../src/domains/continuity/checks/cont-006-archive-objective-changed.js";
import { testCheck } from "../../../helpers/check-tester.js";
import { CONTINUITY_CASES, stateMarkdown } from "../../doctor/fixtures.js";

const same = stateMarkdown();
const other = stateMarkdown({ Objective: "Migrate the billing database to Postgres 16" });
const UNCHANGED = /^Objective unchanged since the newest archive \(2026-05-31_18-00\.md\)$/;

testCheck(check, {
  ...CONTINUITY_CASES,
  valid: [
    { name: "no archives yet", workspace: {}, ok: /^No session archives yet \(first session\?\)$/ },
    { name: "the newest archive has the same objective", workspace: { archives: { "2026-05-31_18-00.md": same } }, ok: UNCHANGED },
    { name: "formatting differences are not a different objective", workspace: { archives: { "2026-05-31_18-00.md": stateMarkdown({ Objective: "**Build** the user  authentication module." }) } }, ok: UNCHANGED },
    { name: "an older archive differing does not matter", workspace: { archives: { "2026-04-01_09-00.md": other, "2026-05-31_18-00.md": same } }, ok: UNCHANGED },
    { name: "an archive without an objective is not compared", workspace: { archives: { "2026-05-31_18-00.md": "# notes\nnothing here\n" } }, ok: /^Newest archive 2026-05-31_18-00\.md has no objective to compare with$/ },
    { name: "silent when the current objective is still a placeholder", workspace: { state: stateMarkdown({ Objective: "[One sentence: what are we trying to accomplish]" }), archives: { "2026-05-31_18-00.md": other } }, ok: null },
  ],
  invalid: [
    {
      name: "the newest archive had another objective",
      workspace: { archives: { "2026-05-31_18-00.md": other } },
      findings: [{ message: /^Archive objective differs from current objective \(task switch\?\): 2026-05-31_18-00\.md had "Migrate the billing database to Postgres 16"$/ }],
    },
    { name: "newest is decided by the dated name, not by the order written", workspace: { archives: { "2026-05-31_18-00.md": other, "2026-04-01_09-00.md": same } }, findings: [{ message: /2026-05-31_18-00\.md had/ }] },
  ],
});
