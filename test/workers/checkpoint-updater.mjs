// Worker: N updates of one field of one skill's checkpoint (read → merge → validate → write under its lock),
// through the same service as `checkpoint update`. Prints "tick" after each write.
const [root, skill, field, cycles] = process.argv.slice(2);
const { WorkspaceLayout } = await import(process.env.AOP_DIST_URL + "/store/layout.js");
const { updateCheckpoint } = await import(process.env.AOP_DIST_URL + "/domains/checkpoints/write-service.js");
const { parseAssignments, applyAssignments } = await import(process.env.AOP_DIST_URL + "/domains/checkpoints/assignments.js");
const env = { layout: new WorkspaceLayout(root), clock: { now: () => Date.now() } };
for (let i = 1; i <= Number(cycles); i++) {
  const assignments = parseAssignments([`--skill_state.${field}:json=${i}`, `--progress_summary=${field} wrote ${i}`]);
  await updateCheckpoint(env, skill, (doc) => applyAssignments(doc, assignments));
  process.stdout.write("tick\n");
}
process.stdout.write("done\n");
