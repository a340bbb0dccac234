// Crafted workspaces for the continuity doctor differential run (scripts/parity/continuity-parity.mjs):
// heading variants, empty and placeholder sections, Unsurfaced Results values, staleness, archives,
// tasks.md and openspec, session transcripts, and inputs the reference crashes on. A file is text, or
// {base64} for raw bytes, or {dir: true}; `hours` sets a file's age (modification time) relative to
// the run, so no verdict depends on the day it is recorded.

const SECTIONS = ["Objective", "Current Step", "Key Decisions", "Next Action", "Blockers", "Unsurfaced Results"];
const BODIES = {
  Objective: "Build the user authentication module",
  "Current Step": "Writing the login handler",
  "Key Decisions": "- JWT over sessions",
  "Next Action": "Add the refresh-token endpoint",
  Blockers: "None",
  "Unsurfaced Results": "None",
};

/** A CURRENT_STATE.md with every section; `heading(name)` writes each heading, `bodies` overrides bodies. */
export function state({ heading = (n) => `## ${n}`, bodies = {}, drop = [], tail = "" } = {}) {
  const parts = ["# Current State", ""];
  for (const name of SECTIONS) {
    if (drop.includes(name)) continue;
    parts.push(heading(name), bodies[name] ?? BODIES[name], "");
  }
  return parts.join("\n") + tail;
}

const ws = (name, files, extra = {}) => ({ name, files, ...extra });
const st = (options) => ({ "memory/CURRENT_STATE.md": state(options) });

function headingCases() {
  return [
    ws("healthy", st()),
    ws("heading level 1", st({ heading: (n) => `# ${n}` })),
    ws("heading level 3", st({ heading: (n) => `### ${n}` })),
    ws("one heading at level 3", st({ heading: (n) => (n === "Blockers" ? `### ${n}` : `## ${n}`) })),
    ws("headings with a colon", st({ heading: (n) => `## ${n}:` })),
    ws("bold headings", st({ heading: (n) => `## **${n}**` })),
    ws("lower-case headings", st({ heading: (n) => `## ${n.toLowerCase()}` })),
    ws("headings indented two spaces", st({ heading: (n) => `  ## ${n}` })),
    ws("headings indented four spaces", st({ heading: (n) => `    ## ${n}` })),
    ws("no space after ##", st({ heading: (n) => `##${n}` })),
    ws("setext headings", st({ heading: (n) => `${n}\n${"-".repeat(n.length)}` })),
    ws("closing hashes", st({ heading: (n) => `## ${n} ##` })),
    ws("trailing spaces after a heading", st({ heading: (n) => `## ${n}   ` })),
    ws("CRLF line ends", { "memory/CURRENT_STATE.md": state().replace(/\n/g, "\r\n") }),
    ws("a byte-order mark", { "memory/CURRENT_STATE.md": "\uFEFF" + state() }),
    ws("one section missing", st({ drop: ["Key Decisions"] })),
    ws("three sections missing", st({ drop: ["Objective", "Blockers", "Next Action"] })),
    ws("an empty file", { "memory/CURRENT_STATE.md": "" }),
    ws("headings inside a code fence", { "memory/CURRENT_STATE.md": "# State\n\n```\n" + state() + "```\n" }),
    ws("an empty section at the end", st({ bodies: { "Unsurfaced Results": "" } })),
  ];
}

function bodyCases() {
  const u = (name, value, extra) => ws(`Unsurfaced Results: ${name}`, st({ bodies: { "Unsurfaced Results": value } }), extra);
  return [
    u("None", "None"),
    u("none in lower case", "none"),
    u("NONE", "NONE"),
    u("empty", ""),
    u("N/A", "N/A"),
    u("None yet", "None yet"),
    u("- None", "- None"),
    u("None.", "None."),
    u("(none)", "(none)"),
    u("an HTML comment", "<!-- nothing yet -->"),
    u("a template bracket", "[Anything finished that the user has not seen]"),
    u("a result", "- The benchmark finished: 2.3x faster"),
    u("None with notes after a rule", "None\n\n---\n\n_Updated by the agent._"),
    ws("placeholder objective", st({ bodies: { Objective: "[One sentence: what are we trying to accomplish]" } })),
    ws("placeholders in every section", st({ bodies: Object.fromEntries(SECTIONS.map((n) => [n, `[${n} goes here]`])) })),
    ws("a bracket inside prose", st({ bodies: { "Current Step": "Reading [the spec] again" } })),
    ws("a multi-line bracket", st({ bodies: { "Key Decisions": "[first line\nsecond line]" } })),
    ws("a TODO next action", st({ bodies: { "Next Action": "TODO" } })),
    ws("an angled placeholder", st({ bodies: { "Next Action": "<fill in>" } })),
  ];
}

const archive = (objective) => `# Session archive\n\n## Objective\n${objective}\n\n## Current Step\nDone.\n`;

function workspaceCases() {
  return [
    ws("no state file", { "memory/.keep": "" }),
    ws("no memory folder", { "README.md": "hello\n" }),
    ws("stale: 30 hours old", st(), { hours: { "memory/CURRENT_STATE.md": 30 } }),
    ws("6 hours old", st(), { hours: { "memory/CURRENT_STATE.md": 6 } }),
    ws("3 hours old", st(), { hours: { "memory/CURRENT_STATE.md": 3 } }),
    ws("archive with the same objective", { ...st(), "memory/session_archive/2026-03-01_10-00.md": archive(BODIES.Objective) }),
    ws("archive with another objective", { ...st(), "memory/session_archive/2026-03-01_10-00.md": archive("Migrate the billing database") }),
    ws("newest of two archives differs", { ...st(), "memory/session_archive/2026-03-01_10-00.md": archive(BODIES.Objective), "memory/session_archive/2026-03-02_10-00.md": archive("Migrate the billing database") }),
    ws("older of two archives differs", { ...st(), "memory/session_archive/2026-03-01_10-00.md": archive("Migrate the billing database"), "memory/session_archive/2026-03-02_10-00.md": archive(BODIES.Objective) }),
    ws("an archive only in cold/", { ...st(), "memory/session_archive/cold/2026-03-01_10-00.md": archive("Migrate the billing database") }),
    ws("an undated archive name sorts last", { ...st(), "memory/session_archive/2026-03-02_10-00.md": archive(BODIES.Objective), "memory/session_archive/notes.md": archive("Migrate the billing database") }),
    ws("an undated archive, older by time", { ...st(), "memory/session_archive/notes.md": archive("Migrate the billing database"), "memory/session_archive/recap.md": archive(BODIES.Objective) }, { hours: { "memory/session_archive/recap.md": 48, "memory/session_archive/notes.md": 1 } }),
    ws("archive names differing in case", { ...st(), "memory/session_archive/Session.md": archive("Migrate the billing database"), "memory/session_archive/session.md": archive(BODIES.Objective) }),
    ws("archive objective differing only in case", { ...st(), "memory/session_archive/2026-03-01_10-00.md": archive(BODIES.Objective.toUpperCase()) }),
    ws("archive without an objective", { ...st(), "memory/session_archive/2026-03-01_10-00.md": "# Archive\n\nNothing here.\n" }),
    ws("tasks.md naming the objective's words", { ...st(), "tasks.md": "- [ ] User authentication module\n" }),
    ws("tasks.md about something else", { ...st(), "tasks.md": "- [ ] Update the docs\n- [ ] Fix the CI cache\n" }),
    ws("tasks.md with the words only in done items", { ...st(), "tasks.md": "- [x] Build the user authentication module\n- [ ] Update the docs\n" }),
    ws("tasks.md sharing one long word", { ...st(), "tasks.md": "- [ ] Document authentication errors\n" }),
    ws("an empty tasks.md", { ...st(), "tasks.md": "" }),
    ws("openspec change naming the objective", { ...st(), "openspec/changes/add-user-authentication/proposal.md": "# Add user authentication\n" }),
    ws("openspec change about something else", { ...st(), "openspec/changes/migrate-billing/proposal.md": "# Migrate billing\n" }),
    ws("objective of short words", { ...st({ bodies: { Objective: "Fix the bug now" } }), "tasks.md": "- [ ] Something else\n" }),
  ];
}

function transcriptCases() {
  return [
    ws("a transcript newer than the state", st(), { hours: { "memory/CURRENT_STATE.md": 2 }, transcripts: { "agent/s1.jsonl": 0 } }),
    ws("a transcript older than the state", st(), { hours: { "memory/CURRENT_STATE.md": 1 }, transcripts: { "agent/s1.jsonl": 5 } }),
    ws("a transcript 5 minutes after the state", st(), { hours: { "memory/CURRENT_STATE.md": 1 }, transcripts: { "agent/s1.jsonl": 1 - 5 / 60 } }),
  ];
}

const b64 = (text) => Buffer.from(text, "latin1").toString("base64");

/** Inputs the reference crashes on (a Python traceback, exit 1): aop must answer with a finding. */
function crashCases() {
  return [
    ws("a NUL byte in the state file", { "memory/CURRENT_STATE.md": state().replace("Writing", "Wri\u0000ting") }),
    ws("invalid UTF-8 in the state file", { "memory/CURRENT_STATE.md": { base64: b64(state().replace("Writing", "Wri\xff\xfeting")) } }),
    ws("a directory where the state file should be", { "memory/CURRENT_STATE.md": { dir: true } }),
    ws("invalid UTF-8 in tasks.md", { ...st(), "tasks.md": { base64: b64("- [ ] caf\xe9 \xff\n") } }),
    ws("invalid UTF-8 in the newest archive", { ...st(), "memory/session_archive/2026-03-01_10-00.md": { base64: b64(archive("caf\xe9 \xff")) } }),
    ws("a directory named like an archive", { ...st(), "memory/session_archive/2026-03-01_10-00.md": { dir: true } }),
  ];
}

export function continuityCases() {
  return [...headingCases(), ...bodyCases(), ...workspaceCases(), ...transcriptCases(), ...crashCases()];
}
