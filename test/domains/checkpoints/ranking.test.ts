// `next` against the Checkpoint Protocol's reference CLI (scripts/checkpoint.mjs of asfbay-bit/opchain,
// release 1.8.2): one scenario per rule of its priority engine, with the skill, action and why it prints
// for the same files. Evidence of finished work is computed as `next` computes it (done-evidence.ts);
// the git log arrives as data here (a real repository is used in the CLI tests).
import { describe, expect, it } from "vitest";
import { doneTickets } from "../../../src/domains/checkpoints/done-evidence.js";
import { looksLikeGate, pickNext, rankCheckpoints, rankOf, type RankInput } from "../../../src/domains/checkpoints/ranking.js";
import { ticketsDoneInLog } from "../../../src/domains/checkpoints/ticket-refs.js";
import { REFERENCE_T0 as T0, referenceCheckpoint } from "./fixture.js";

const DAY = 86_400_000;
const t = (d: number) => new Date(Date.parse("2026-06-10T00:00:00Z") + d * DAY).toISOString();

const cp = referenceCheckpoint;

interface Scenario {
  name: string;
  files: Record<string, Record<string, unknown>>;
  /** Commit messages of the project's recent git log. */
  git?: string[];
  /** What the reference prints: Skill, Why, Action. */
  expected: { skill: string; why: string; action: string };
  /** aop's choice where it deliberately differs, and why. */
  deviation?: { expected: { skill: string; why: string; action: string }; why: string };
}

const SUMMARY = "Working on sprint 1.";

const SCENARIOS: Scenario[] = [
  {
    name: "decision: a user_decision blocker on a complete checkpoint outranks a failed one; its proposed_resolution is the action",
    files: { a: cp("a", { status: "failed", updated_at: t(5) }), b: cp("b", { status: "complete", next_actions: [], updated_at: t(1), blockers: [{ id: "b1", description: "Pick A or B", needs: "user_decision", proposed_resolution: "Go with A" }] }) },
    expected: { skill: "b", why: "Blocked on your decision: Pick A or B", action: "Go with A" },
  },
  { name: "decision without a proposed_resolution", files: { a: cp("a", { blockers: [{ id: "b1", description: "Pick", needs: "user_decision" }] }) }, expected: { skill: "a", why: "Blocked on your decision: Pick", action: "Resolve the blocker, then resume." } },
  {
    name: "decision: the first blocker needing a decision, not blockers[0]",
    files: { a: cp("a", { blockers: [{ id: "b0", description: "lib broken", needs: "code_fix", proposed_resolution: "patch lib" }, { id: "b1", description: "Pick", needs: "user_decision", proposed_resolution: "choose B" }] }) },
    expected: { skill: "a", why: "Blocked on your decision: Pick", action: "choose B" },
  },
  { name: "failed with a proposed resolution on its first blocker", files: { a: cp("a", { status: "failed", blockers: [{ id: "b0", description: "tests red", needs: "code_fix", proposed_resolution: "fix the test" }] }) }, expected: { skill: "a", why: "failed: tests red", action: "fix the test" } },
  {
    name: "blocked, first blocker without a proposed resolution: the first queued action (a second blocker's resolution is never used)",
    files: { a: cp("a", { status: "blocked", next_actions: ["Ping vendor", "Then deploy"], blockers: [{ id: "b0", description: "waiting on vendor", needs: "external_dep" }, { id: "b1", description: "x", proposed_resolution: "second blocker resolution" }] }) },
    expected: { skill: "a", why: "blocked: waiting on vendor", action: "Ping vendor" },
  },
  { name: "blocked, no blockers, no actions", files: { a: cp("a", { status: "blocked", next_actions: [] }) }, expected: { skill: "a", why: "blocked — needs recovery", action: "Diagnose and recover." } },
  {
    name: "failed (older) and blocked (newer) share a rank: the newest wins",
    files: { a: cp("a", { status: "failed", updated_at: t(1), next_actions: ["fix a"] }), b: cp("b", { status: "blocked", updated_at: t(2), next_actions: ["unblock b"] }) },
    expected: { skill: "b", why: "blocked — needs recovery", action: "unblock b" },
  },
  {
    name: "gate step: phase/step words outrank newer work in progress",
    files: { a: cp("a", { step: "spec-gate awaiting approval", updated_at: t(1), next_actions: ["get approval"] }), b: cp("b", { updated_at: t(9), next_actions: ["keep coding"] }) },
    expected: { skill: "a", why: SUMMARY, action: "get approval" },
  },
  {
    name: "gate via an in-progress table row whose id/label holds gate/approval (no word boundary: 'Navigate')",
    files: { a: cp("a", { updated_at: t(1), progress_table: [{ id: "ui", label: "Navigate menus", status: "in_progress" }], next_actions: ["nav work"] }), b: cp("b", { updated_at: t(9), next_actions: ["keep coding"] }) },
    expected: { skill: "a", why: SUMMARY, action: "nav work" },
  },
  {
    name: "'gated' is not a gate word; an older 'sign-off' step is",
    files: { a: cp("a", { step: "gated rollout", progress_table: [], updated_at: t(9), next_actions: ["a1"] }), b: cp("b", { step: "final sign-off", progress_table: [], updated_at: t(1), next_actions: ["b1"] }) },
    expected: { skill: "b", why: SUMMARY, action: "b1" },
  },
  {
    name: "'sign off' with a space is not a gate word: the newer plain step wins",
    files: { a: cp("a", { step: "plain", progress_table: [], updated_at: t(9), next_actions: ["a1"] }), b: cp("b", { step: "final sign off", progress_table: [], updated_at: t(1), next_actions: ["b1"] }) },
    expected: { skill: "a", why: SUMMARY, action: "a1" },
  },
  {
    name: "a complete checkpoint at a gate step stays at rank 5: gate words count only in progress",
    files: { a: cp("a", { status: "complete", step: "awaiting approval", updated_at: t(9), next_actions: ["c1"] }), b: cp("b", { updated_at: t(1), next_actions: ["mid"] }) },
    expected: { skill: "b", why: SUMMARY, action: "mid" },
  },
  {
    name: "in progress outranks complete with queued actions, even when older",
    files: { a: cp("a", { status: "complete", updated_at: t(9), next_actions: ["chain onward"] }), b: cp("b", { updated_at: t(1), next_actions: ["resume b"] }) },
    expected: { skill: "b", why: SUMMARY, action: "resume b" },
  },
  { name: "only a complete checkpoint with nothing queued: still chosen (rank 6)", files: { a: cp("a", { status: "complete", next_actions: [] }) }, expected: { skill: "a", why: SUMMARY, action: "No queued next action — review the checkpoint." } },
  {
    name: "over budget sorts first within its rank, despite an older updated_at",
    files: { a: cp("a", { updated_at: t(9), next_actions: ["under"], cost: { total_usd: 10, budget_usd: 50 } }), b: cp("b", { updated_at: t(1), next_actions: ["over"], cost: { total_usd: 80, budget_usd: 50 } }) },
    expected: { skill: "b", why: `⚠ over budget ($80 > $50) — ${SUMMARY}`, action: "over" },
  },
  {
    name: "over budget does not lift a lower rank",
    files: { a: cp("a", { status: "complete", next_actions: ["c"], cost: { total_usd: 80, budget_usd: 50 } }), b: cp("b", { next_actions: ["mid"] }) },
    expected: { skill: "b", why: SUMMARY, action: "mid" },
  },
  { name: "ties on rank and updated_at: the first file by name", files: { a: cp("a", { next_actions: ["from a"] }), b: cp("b", { next_actions: ["from b"] }) }, expected: { skill: "a", why: SUMMARY, action: "from a" } },
  {
    name: "an unreadable updated_at counts as the oldest",
    files: { a: cp("a", { updated_at: "garbage", next_actions: ["from a"] }), b: cp("b", { updated_at: "2020-01-01T00:00:00Z", next_actions: ["from b"] }) },
    expected: { skill: "b", why: SUMMARY, action: "from b" },
  },
  {
    name: "stale queued action: a complete row in another checkpoint names #42",
    files: { a: cp("a", { status: "complete", next_actions: [], progress_table: [{ id: "pr-42", label: "Land PR #42", status: "complete" }], updated_at: t(1) }), b: cp("b", { next_actions: ["Merge PR #42", "Write docs"], updated_at: t(2) }) },
    expected: { skill: "b", why: `${SUMMARY}  (skipped 1 stale action referencing already-merged work)`, action: "Write docs" },
  },
  {
    name: "every queued action names finished work: reconcile",
    files: { b: cp("b", { progress_table: [{ id: "x", label: "ADEV-7 shipped", status: "complete" }], next_actions: ["Close ADEV-7", { text: "Verify ADEV-7 in prod", done_when: "true" }] }) },
    expected: { skill: "b", why: `${SUMMARY}  (skipped 2 stale actions referencing already-merged work)`, action: "All 2 queued action(s) reference already-merged/-completed work — run `checkpoint doctor` and reconcile this checkpoint before continuing." },
  },
  {
    name: "stale by the git log: a squash-merge subject ending in (#99)",
    files: { b: cp("b", { next_actions: ["Open PR #99", "Next thing"] }) },
    git: ["feat: x (#99)"],
    expected: { skill: "b", why: `${SUMMARY}  (skipped 1 stale action referencing already-merged work)`, action: "Next thing" },
  },
  {
    name: "not evidence: pm_refs ids, recently_done, rows in progress, lowercase ids",
    files: { b: cp("b", { pm_refs: [{ provider: "linear", id: "ABC-1", role: "source" }], recently_done: [{ at: T0, action: "Merged #5" }], progress_table: [{ id: "r", label: "DEF-2 in flight", status: "in_progress" }, { id: "q", label: "abc-3 done", status: "complete" }], next_actions: ["Close ABC-1 #5 DEF-2 abc-3"] }) },
    expected: { skill: "b", why: SUMMARY, action: "Close ABC-1 #5 DEF-2 abc-3" },
  },
  {
    name: "a stale proposed resolution of a decision",
    files: { a: cp("a", { progress_table: [{ id: "x", label: "#12", status: "complete" }], blockers: [{ id: "b1", description: "Tag it?", needs: "user_decision", proposed_resolution: "Tag #12" }] }) },
    expected: { skill: "a", why: "Blocked on your decision: Tag it?", action: "Resolve the blocker, then resume." },
  },
  {
    name: "failed, a stale proposed resolution: the first fresh queued action",
    files: { a: cp("a", { status: "failed", progress_table: [{ id: "x", label: "#12", status: "complete" }], blockers: [{ id: "b1", description: "broke", proposed_resolution: "Revert #12" }], next_actions: ["#12 again", "Bisect"] }) },
    expected: { skill: "a", why: "failed: broke", action: "Bisect" },
  },
  {
    name: "failed, everything stale",
    files: { a: cp("a", { status: "failed", progress_table: [{ id: "x", label: "#12", status: "complete" }], blockers: [{ id: "b1", description: "broke", proposed_resolution: "Revert #12" }], next_actions: ["#12 again"] }) },
    expected: { skill: "a", why: "failed: broke", action: "Diagnose and recover." },
  },
  {
    name: "over budget: the note in why, with the summary's first sentence",
    files: { a: cp("a", { progress_summary: "Sprint 2 built. Evaluator running. Third.", cost: { total_usd: 80.5, budget_usd: 50 } }) },
    expected: { skill: "a", why: "⚠ over budget ($80.5 > $50) — Sprint 2 built.", action: "Do the next thing" },
  },
  { name: "no progress_summary: '<skill> is <status>'; an object action's text", files: { a: cp("a", { progress_summary: undefined, next_actions: [{ text: "Run evals", done_when: "npm test" }] }) }, expected: { skill: "a", why: "a is in_progress", action: "Run evals" } },
  { name: "the first action is an empty string", files: { a: cp("a", { next_actions: ["", "second"] }) }, expected: { skill: "a", why: SUMMARY, action: "No queued next action — review the checkpoint." } },
  {
    name: "age is not a reason: a 200-day-old file in progress beats a fresh complete one",
    files: { a: cp("a", { updated_at: t(-200), next_actions: ["old mid-work"] }), b: cp("b", { status: "complete", updated_at: t(0), next_actions: ["fresh chain"] }) },
    expected: { skill: "a", why: SUMMARY, action: "old mid-work" },
  },
  { name: "a file with errors is ranked too (status 'wat': rank 6)", files: { a: cp("a", { status: "wat", next_actions: ["from invalid a"] }) }, expected: { skill: "a", why: SUMMARY, action: "from invalid a" } },
  { name: "no status: rank 6", files: { a: cp("a", { status: undefined, next_actions: ["no status"] }) }, expected: { skill: "a", why: SUMMARY, action: "no status" } },
  {
    name: "skill_state is no evidence (private to its skill)",
    files: { b: cp("b", { skill_state: { merged_prs: [{ pr: "#7" }], notes: "#8" }, next_actions: ["Rebase #7", "Ship #8"] }) },
    expected: { skill: "b", why: `${SUMMARY}  (skipped 1 stale action referencing already-merged work)`, action: "Ship #8" },
    deviation: { expected: { skill: "b", why: SUMMARY, action: "Rebase #7" }, why: "skill_state is private to its skill: aop never reads it for evidence" },
  },
  {
    name: "standards such as UTF-8 are not tickets",
    files: { b: cp("b", { progress_table: [{ id: "enc", label: "UTF-8 support", status: "complete" }], next_actions: ["Fix the UTF-8 bug", "Other"] }) },
    expected: { skill: "b", why: `${SUMMARY}  (skipped 1 stale action referencing already-merged work)`, action: "Other" },
    deviation: { expected: { skill: "b", why: SUMMARY, action: "Fix the UTF-8 bug" }, why: "UTF-8, SHA-256, ISO-8601 are standards, not ticket keys" },
  },
  {
    name: "a commit that only mentions a ticket is no evidence that it is finished",
    files: { b: cp("b", { next_actions: ["Land #12", "Other"] }) },
    git: ["Start on #12 (work in progress)"],
    expected: { skill: "b", why: `${SUMMARY}  (skipped 1 stale action referencing already-merged work)`, action: "Other" },
    deviation: { expected: { skill: "b", why: SUMMARY, action: "Land #12" }, why: "a commit counts as evidence only when it says the ticket is finished (a closing word or a squash-merge subject), as CKPT_006 reads it" },
  },
];

function inputsOf(files: Record<string, Record<string, unknown>>): RankInput[] {
  return Object.keys(files)
    .sort()
    .map((name) => ({ file: `${name}.checkpoint.json`, document: files[name]!, valid: files[name]!.status !== "wat" }));
}

function choose(s: Scenario) {
  const inputs = inputsOf(s.files);
  const done = doneTickets(inputs.map((i) => ({ skill: String(i.document.skill), document: i.document })), ticketsDoneInLog((s.git ?? []).join("\n")));
  return pickNext(inputs, done);
}

describe("next chooses like the reference CLI", () => {
  it.each(SCENARIOS.map((s) => [s.name, s] as const))("%s", (_name, s) => {
    const pick = choose(s)!;
    expect({ skill: pick.skill, why: pick.why, action: pick.action }).toEqual(s.deviation?.expected ?? s.expected);
  });

  it("an empty folder: nothing to choose", () => {
    expect(pickNext([])).toBeNull();
  });

  it("the pick carries rank, budget, staleness and validity", () => {
    expect(choose(SCENARIOS.find((s) => s.name.startsWith("over budget sorts"))!)).toMatchObject({ file: "b.checkpoint.json", rank: 4, over_budget: true, all_stale: false, skipped: 0, valid: true, phase: "build", step: "sprint-1", status: "in_progress" });
    expect(choose(SCENARIOS.find((s) => s.name.startsWith("every queued action"))!)).toMatchObject({ all_stale: true, skipped: 2 });
    expect(choose(SCENARIOS.find((s) => s.name.startsWith("a file with errors"))!)).toMatchObject({ rank: 6, valid: false, status: "wat" });
  });

  it("orders whole folders: rank, over budget, newest, file name", () => {
    const files = {
      idle: cp("idle", { status: "complete", next_actions: [] }),
      chain: cp("chain", { status: "complete", next_actions: ["x"] }),
      work: cp("work", { updated_at: t(1) }),
      newer: cp("newer", { updated_at: t(2) }),
      spender: cp("spender", { updated_at: t(0), cost: { total_usd: 9, budget_usd: 1 } }),
      gate: cp("gate", { step: "qa gate" }),
      broken: cp("broken", { status: "failed" }),
      ask: cp("ask", { status: "complete", blockers: [{ id: "q", description: "?", needs: "user_decision" }] }),
    };
    expect(rankCheckpoints(inputsOf(files)).map((p) => [p.skill, p.rank])).toEqual([["ask", 1], ["broken", 2], ["gate", 3], ["spender", 4], ["newer", 4], ["work", 4], ["chain", 5], ["idle", 6]]);
  });

  it.each([
    ["spec gate", "build", true],
    ["gates", "build", false],
    ["await-approval", "build", true],
    ["approve release", "build", true],
    ["signoff", "build", true],
    ["awaiting review", "build", true],
    ["write handlers", "approval", true],
    ["navigate", "build", false],
  ])("looksLikeGate(step %j, phase %j) is %s", (step, phase, expected) => {
    expect(looksLikeGate(cp("a", { step, phase, progress_table: [] }))).toBe(expected);
  });

  it("documents of any shape are ranked without throwing", () => {
    for (const doc of [{}, { blockers: [null, 3, "x"] }, { status: "in_progress", progress_table: [null, { id: 1 }], phase: 7 }, { next_actions: "x", status: "complete" }]) {
      expect(() => pickNext([{ file: "x.checkpoint.json", document: doc, valid: false }])).not.toThrow();
      expect(rankOf(doc)).toBeGreaterThanOrEqual(1);
    }
  });
});
