import { describe, it } from "vitest";
import { check } from "../../../../src/domains/continuity/checks/cont-006-archive-objective-changed.js";
import { expectCase, stateMarkdown, type CheckCase } from "../../doctor/fixtures.js";

const same = stateMarkdown();
const other = stateMarkdown({ Objective: "Migrate the billing database to Postgres 16" });

const cases: CheckCase[] = [
  { name: "healthy: no archives yet", spec: {}, findings: [], ok: /^No session archives yet \(first session\?\)$/ },
  { name: "healthy: the newest archive has the same objective", spec: { archives: { "2026-05-31_18-00.md": same } }, findings: [], ok: /^Objective unchanged since the newest archive \(2026-05-31_18-00\.md\)$/ },
  {
    name: "healthy: formatting differences are not a different objective",
    spec: { archives: { "2026-05-31_18-00.md": stateMarkdown({ Objective: "**Build** the user  authentication module." }) } },
    findings: [],
    ok: /^Objective unchanged since the newest archive \(2026-05-31_18-00\.md\)$/,
  },
  {
    name: "broken: the newest archive had another objective",
    spec: { archives: { "2026-05-31_18-00.md": other } },
    findings: [["info", /^Archive objective differs from current objective \(task switch\?\): 2026-05-31_18-00\.md had "Migrate the billing database to Postgres 16"$/]],
  },
  {
    name: "broken: newest is decided by the dated name, not by the order written",
    spec: { archives: { "2026-05-31_18-00.md": other, "2026-04-01_09-00.md": same } },
    findings: [["info", /2026-05-31_18-00\.md had/]],
  },
  { name: "healthy: an older archive differing does not matter", spec: { archives: { "2026-04-01_09-00.md": other, "2026-05-31_18-00.md": same } }, findings: [], ok: /^Objective unchanged since the newest archive \(2026-05-31_18-00\.md\)$/ },
  { name: "healthy: an archive without an objective is not compared", spec: { archives: { "2026-05-31_18-00.md": "# notes\nnothing here\n" } }, findings: [], ok: /^Newest archive 2026-05-31_18-00\.md has no objective to compare with$/ },
  { name: "silent when the current objective is still a placeholder", spec: { state: stateMarkdown({ Objective: "[One sentence: what are we trying to accomplish]" }), archives: { "2026-05-31_18-00.md": other } }, findings: [], ok: null },
];

describe(check.id, () => {
  it.each(cases)("$name", (c) => expectCase(check, c));
});
