// The handoff domain's public surface: the handoff note (schema, checklist, sources, writing) and the
// pulled notes `aop resume --from` and the SessionStart hook read (docs/handoff.md).
export { handoffChecklist, type ChecklistItem } from "./handoff-checklist.js";
export { MAX_HANDOFF_BYTES, parseHandoffNote, type HandoffNote } from "./handoff-note.js";
export { buildHandoffNote, gatherHandoffSources } from "./handoff-sources.js";
export { handoffContextLines, renderHandoff } from "./handoff-text.js";
export { newerPulledHandoff, pulledHandoffs } from "./pulled-handoff.js";
