// CONT_007: when the workspace plans its work in tasks.md or openspec/, the objective should name one
// of the active tasks — otherwise the agent may be resuming something nobody planned.
import type { DoctorCheck } from "../../doctor/index.js";
import { extractObjective, quoteText } from "../objective.js";
import { objectiveMatchesTask } from "../task-matching.js";
import { activeTasks, stateDocument } from "../workspace-state.js";

export const check: DoctorCheck = {
  id: "CONT_007_OBJECTIVE_NOT_IN_TASKS",
  severity: "info",
  title: "Objective matches an active task",
  remediation:
    "Reword the Objective after the task it serves (a tasks.md item or an openspec change), add the task to tasks.md, or open an openspec change for it.",
  run(ctx) {
    const doc = stateDocument(ctx);
    const objective = doc ? extractObjective(doc) : undefined;
    if (objective === undefined) return { findings: [] };
    const planned = activeTasks(ctx);
    if (!planned) return { findings: [] }; // no tasks.md and no openspec/: nothing to compare with
    const unread = planned.unreadable.map((u) => ({ message: `${u.file} ${u.reason}`, refs: [u.file], remediation: `Replace ${u.file} with a regular Markdown file.` }));
    const match = planned.tasks.find((task) => objectiveMatchesTask(objective, task.text));
    if (match) return { findings: unread, okMessage: `Objective matches an active task in ${match.source}: ${quoteText(match.text)}` };
    const where = planned.sources.join(" or ");
    const message =
      planned.tasks.length === 0
        ? `Objective ${quoteText(objective)} does not match any active task: ${where} has no open task`
        : `Objective ${quoteText(objective)} does not match any of the ${planned.tasks.length} active task entries in ${where}`;
    return { findings: [...unread, { message, refs: planned.sources.map((s) => s.replace(/\/$/, "")) }] };
  },
};
