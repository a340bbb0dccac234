// Worker: waits until a shared start time, then asks for the workspace id once and prints what it got.
const [root, startAt] = process.argv.slice(2);
const dist = process.env.AOP_DIST_URL;
const { WorkspaceLayout } = await import(dist + "/store/layout.js");
const { ensureWorkspaceIdentity } = await import(dist + "/store/workspace-identity.js");
const { systemClock } = await import(dist + "/core/clock.js");
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
const result = await ensureWorkspaceIdentity(new WorkspaceLayout(root), systemClock);
process.stdout.write(JSON.stringify({ id: result.identity.workspace_id, outcome: result.outcome }) + "\n");
