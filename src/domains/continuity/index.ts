// The continuity domain's public surface: the memory-continuity protocol's reading and the CONT_* checks.
// Other domains, the composition root and the adapters import only from here.
export { continuityChecks, continuityFamily } from "./checks/continuity-family.js";
export { buildReport, checkWorkspace, type ContinuityReport, createSharedMemo, type WorkspaceReport, worstFirst } from "./doctor-runner.js";
export { planTargets } from "./doctor-targets.js";
export { readStateDocument, REQUIRED_SECTIONS, type RequiredSection, sectionValue } from "./state-document.js";
export { MAX_STATE_BYTES } from "./workspace-state.js";
export { readStateSummary, type StateSummary } from "./state-summary.js";
export { parseMarkdownSections } from "./markdown-sections.js";
