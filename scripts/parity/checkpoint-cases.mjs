// Crafted projects for the Checkpoint Protocol differential run (scripts/parity/checkpoint-parity.mjs):
// one `.checkpoints/` folder each, covering every rule of `validate` and its edges, the ranks and
// tie-breaks of `next`, the staleness and decision banner of `status`, and `done`. Every time is
// relative to PARITY_NOW: the verdicts never depend on the day the harness runs.

export const PARITY_NOW = "2026-06-10T12:00:00Z";
const T0 = "2026-06-01T12:00:00Z"; // 9 days before PARITY_NOW: in_progress (7 d) and blocked (3 d) stale, complete (14 d) not
const NOW_MS = Date.parse(PARITY_NOW);
const HOUR = 3_600_000;
const iso = (ms) => new Date(ms).toISOString().replace(".000Z", "Z");
const ago = (hours) => iso(NOW_MS - hours * HOUR);

/** A valid 1.1 checkpoint in progress; a key set to undefined is removed. */
export function doc(skill, overrides = {}) {
  const d = {
    protocol_version: "1.1", skill, project: "demo", project_dir: "/tmp/demo", created_at: T0, updated_at: T0,
    phase: "build", step: "sprint-1", status: "in_progress", progress_summary: "Working on sprint 1. More detail here.",
    progress_table: [{ id: "sprint-1", label: "Sprint 1", status: "in_progress" }],
    context_primer: { key_decisions: [], generated_files: [], user_preferences: [] },
    next_actions: ["Do the next thing"],
  };
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete d[k];
    else d[k] = v;
  }
  return d;
}

const json = (value) => JSON.stringify(value, null, 2) + "\n";
const one = (name, overrides, extra = {}) => ({ name, files: { "a.checkpoint.json": json(doc("a", overrides)) }, ...extra });

/** Single-file cases: one rule (or an edge of one) each. */
function validateCases() {
  return [
    one("valid 1.1", {}),
    one("valid 1.0", { protocol_version: "1.0" }),
    one("version 1.2", { protocol_version: "1.2" }),
    one("version as a number", { protocol_version: 1.1 }),
    one("version 0", { protocol_version: 0 }),
    one("version false", { protocol_version: false }),
    one("no progress_summary", { progress_summary: undefined }),
    one("empty phase", { phase: "" }),
    one("blank phase", { phase: "   " }),
    one("null step", { step: null }),
    one("numeric phase", { phase: 5 }),
    one("no project_dir", { project_dir: undefined }),
    one("status done", { status: "done" }),
    one("status false", { status: false }),
    one("no status", { status: undefined }),
    one("timestamp with an offset", { created_at: "2026-06-01T12:00:00+00:00" }),
    one("timestamp without seconds", { created_at: "2026-06-01T12:00Z" }),
    one("milliseconds", { created_at: "2026-06-01T12:00:00.123Z", updated_at: "2026-06-01T12:00:00.124Z" }),
    one("lowercase z", { updated_at: "2026-06-01T12:00:00z" }),
    one("date only", { created_at: "2026-06-01" }),
    one("February 30th", { created_at: "2026-02-30T00:00:00Z" }),
    one("month 13", { created_at: "2026-13-01T00:00:00Z" }),
    one("timestamp as a number", { created_at: 1780000000000 }),
    one("timestamp 0", { created_at: 0 }),
    one("updated before created", { created_at: "2026-06-02T12:00:00Z" }),
    one("updated equal to created", {}),
    one("updated_at 2 days ahead", { created_at: ago(1), updated_at: ago(-48) }),
    one("updated_at 1 hour ahead", { created_at: ago(1), updated_at: ago(-1) }),
    one("updated_at 23 hours ahead", { created_at: ago(1), updated_at: ago(-23) }),
    one("skill other than the file name", { skill: "other" }),
    { name: "skill 5 in 5.checkpoint.json", files: { "5.checkpoint.json": json(doc(5)) } },
    one("progress_table an object", { progress_table: { id: "x" } }),
    one("a row that is a string", { progress_table: ["x"] }),
    one("a row without a label", { progress_table: [{ id: "r1", status: "complete" }] }),
    one("a row with id 0", { progress_table: [{ id: 0, label: "x", status: "complete" }] }),
    one("a row with status done", { progress_table: [{ id: "r1", label: "R", status: "done" }] }),
    one("no table while in progress", { progress_table: undefined }),
    one("an empty table while in progress", { progress_table: [] }),
    one("no table, complete", { status: "complete", progress_table: undefined }),
    one("no context_primer while in progress", { context_primer: undefined }),
    one("context_primer null", { context_primer: null }),
    one("empty next_actions while in progress", { next_actions: [] }),
    one("no next_actions while in progress", { next_actions: undefined }),
    one("empty next_actions while blocked", { status: "blocked", next_actions: [] }),
    one("next_actions a string", { next_actions: "do it" }),
    one("next_actions null while complete", { status: "complete", next_actions: null }),
    one("an action without text", { next_actions: [{ done_when: "true" }] }),
    one("an action that is a number", { next_actions: [7] }),
    one("done_when a number", { next_actions: [{ text: "t", done_when: 42 }] }),
    one("an action with extra keys", { next_actions: [{ text: "t", done_when: "true", owner: "me" }] }),
    one("an empty string action", { next_actions: [""] }),
    one("blockers an object", { blockers: { id: "b" } }),
    one("a blocker that is a string", { blockers: ["b"] }),
    one("a blocker without a description", { blockers: [{ id: "b1" }] }),
    one("a blocker needing wat", { blockers: [{ id: "b1", description: "d", needs: "wat" }] }),
    one("a blocker with needs null", { blockers: [{ id: "b1", description: "d", needs: null }] }),
    one("a blocker blocking no row", { blockers: [{ id: "b1", description: "d", blocking: "nope" }] }),
    one("a blocker blocking the row", { blockers: [{ id: "b1", description: "d", blocking: "sprint-1" }] }),
    one("pm_refs an object", { pm_refs: {} }),
    one("pm_refs null", { pm_refs: null }),
    one("a pm_ref without a provider", { pm_refs: [{ id: "ABC-1" }] }),
    one("a pm_ref with role owner", { pm_refs: [{ provider: "linear", id: "ABC-1", role: "owner" }] }),
    one("cost a list", { cost: [1] }),
    one("a negative total", { cost: { total_usd: -1 } }),
    one("a budget as text", { cost: { budget_usd: "50" } }),
    one("a phase cost as text", { cost: { by_phase: { spec: "lots" } } }),
    one("over budget", { cost: { total_usd: 80, budget_usd: 50 } }),
    one("spend equal to the budget", { cost: { total_usd: 50, budget_usd: 50 } }),
    one("eval_scores an object", { eval_scores: { rubric: "r", score: 1 } }),
    one("an empty rubric", { eval_scores: [{ rubric: "", score: 8 }] }),
    one("a score over its max", { eval_scores: [{ rubric: "r", score: 11, max: 10 }] }),
    one("max 0", { eval_scores: [{ rubric: "r", score: 0, max: 0 }] }),
    one("an eval date only", { eval_scores: [{ rubric: "r", score: 1, at: "2026-06-01" }] }),
    one("a dimension as text", { eval_scores: [{ rubric: "r", score: 1, dimensions: { ux: "good" } }] }),
    one("a blank telemetry handle", { telemetry_handle: "  " }),
    one("a numeric telemetry handle", { telemetry_handle: 42 }),
    one("telemetry enabled as text", { telemetry_handle: { enabled: "yes" } }),
    one("a null telemetry handle", { telemetry_handle: null }),
    one("a summary of 1200 characters", { progress_summary: "s".repeat(1200) }),
    one("a summary of 1201 characters", { progress_summary: "s".repeat(1201) }),
    one("a 33 KB file", { skill_state: { blob: "x".repeat(33 * 1024) } }),
    one("several errors at once", { status: "done", phase: "", pm_refs: null, cost: [1] }),
    one("an error and two warnings", { status: "in_progress", skill: "other", progress_table: undefined, context_primer: undefined }),
    { name: "a top-level array", files: { "a.checkpoint.json": "[]\n" } },
    { name: "invalid JSON", files: { "a.checkpoint.json": '{"skill": "a",' } },
    { name: "no checkpoints", files: {} },
    { name: "one valid and one invalid file", files: { "a.checkpoint.json": json(doc("a")), "b.checkpoint.json": json(doc("b", { status: "done" })) } },
  ];
}

const files = (...docs) => Object.fromEntries(docs.map((d) => [`${d.skill}.checkpoint.json`, json(d)]));
const decision = { id: "d1", description: "Pick a database", needs: "user_decision", proposed_resolution: "Use Postgres" };

/** Several skills: which one `next` chooses, what `status` flags. */
function rankingCases() {
  return [
    { name: "next: a decision beats a failure", files: files(doc("a", { status: "failed", updated_at: ago(1) }), doc("b", { status: "blocked", next_actions: [], blockers: [decision] })) },
    { name: "next: failed and blocked tie on the newest", files: files(doc("a", { status: "failed" }), doc("b", { status: "blocked", next_actions: [], updated_at: ago(2) })) },
    { name: "next: a gate beats plain progress", files: files(doc("a", { updated_at: ago(1) }), doc("b", { step: "awaiting sign-off" })) },
    { name: "next: a gate row", files: files(doc("a", { updated_at: ago(1) }), doc("b", { progress_table: [{ id: "approval-gate", label: "Approval", status: "in_progress" }] })) },
    { name: "next: in progress beats complete with actions", files: files(doc("a", { status: "complete", updated_at: ago(1) }), doc("b")) },
    { name: "next: complete with actions beats complete without", files: files(doc("a", { status: "complete", next_actions: [], updated_at: ago(1) }), doc("b", { status: "complete" })) },
    { name: "next: over budget first within a rank", files: files(doc("a", { updated_at: ago(1) }), doc("b", { cost: { total_usd: 80, budget_usd: 50 } })) },
    { name: "next: the newest within a rank", files: files(doc("a", { updated_at: ago(30) }), doc("b", { updated_at: ago(2) }), doc("c", { updated_at: ago(10) })) },
    { name: "next: a tie goes to the first file", files: files(doc("b"), doc("a"), doc("c")) },
    { name: "next: everything complete", files: files(doc("a", { status: "complete", next_actions: [] }), doc("b", { status: "complete", next_actions: [], updated_at: ago(3) })) },
    { name: "next: a file with errors is ranked", files: files(doc("a", { status: "failed", phase: "" }), doc("b", { updated_at: ago(1) })) },
    { name: "next: a file that is not JSON is skipped", files: { "a.checkpoint.json": "{oops", ...files(doc("b")) } },
    { name: "next: an unreadable updated_at counts as oldest", files: files(doc("a", { updated_at: "soon", created_at: "soon" }), doc("b", { updated_at: ago(500) })) },
    { name: "next: a decision on a complete skill", files: files(doc("a", { updated_at: ago(1) }), doc("b", { status: "complete", blockers: [decision] })) },
    { name: "next: a finished ticket skipped", files: files(doc("a", { progress_table: [{ id: "ABC-12", label: "Login", status: "complete" }], next_actions: ["Ship ABC-12", "Write docs"] })) },
    { name: "status: stale by status", files: files(doc("a"), doc("b", { status: "complete", next_actions: [] }), doc("c", { status: "blocked", next_actions: [] }), doc("d", { status: "failed" }), doc("e", { status: "complete", updated_at: "2026-05-20T12:00:00Z", created_at: "2026-05-20T12:00:00Z" })) },
    { name: "status: fresh files", files: files(doc("a", { updated_at: ago(1), created_at: ago(2) }), doc("b", { status: "blocked", next_actions: [], updated_at: ago(70), created_at: ago(71) })) },
    { name: "status: two decisions in two skills", files: files(doc("a", { blockers: [decision] }), doc("b", { blockers: [{ ...decision, id: "d2" }, { id: "x", description: "CI red", needs: "code_fix" }] })) },
    { name: "status: an invalid file still listed", files: files(doc("a", { status: "done" }), doc("b")) },
    { name: "status: a decision in an invalid file", files: files(doc("a", { phase: "", blockers: [decision] })) },
  ];
}

/** `done` on skill `a`: the queue popped, what recently_done holds. */
function doneCases() {
  const d = (name, overrides) => ({ ...one(`done: ${name}`, overrides), done: "a" });
  return [
    d("a string action", { next_actions: ["First", "Second"] }),
    d("an action object", { next_actions: [{ text: "Run the tests", done_when: "npm test" }, "Then ship"] }),
    d("the last action while in progress (the result is invalid)", { next_actions: ["Only one"] }),
    d("the last action while complete", { status: "complete", next_actions: ["Only one"] }),
    d("an empty queue", { status: "complete", next_actions: [] }),
    d("recently_done not a list", { next_actions: ["A", "B"], recently_done: "x" }),
    d("recently_done full", { next_actions: ["A", "B"], recently_done: Array.from({ length: 10 }, (_, i) => ({ at: T0, action: `old ${i}` })) }),
    d("a 1.0 file with object entries", { protocol_version: "1.0", next_actions: ["A", "B"], recently_done: [{ at: T0, action: { text: "older", done_when: "true" } }] }),
    d("a file with errors", { phase: "", next_actions: ["A", "B"] }),
    { name: "done: no such skill", files: files(doc("b")), done: "a" },
  ];
}

export function checkpointCases() {
  return [...validateCases(), ...rankingCases(), ...doneCases()];
}
