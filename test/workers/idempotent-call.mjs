// Worker: calls one tool through a ToolRuntime whose handler records each execution in a file, slowly,
// so two processes racing on the same operation id overlap.
import fs from "node:fs";
const [root, operationId, executionsFile, delayMs] = process.argv.slice(2);
const base = process.env.AOP_DIST_URL;
const { ToolRuntime } = await import(base + "/runtime/tool-runtime.js");
const { WorkspaceLayout } = await import(base + "/store/layout.js");
const { systemClock } = await import(base + "/core/clock.js");
const handlerLoader = async () => async (args) => {
  fs.appendFileSync(executionsFile, `${process.pid}\n`);
  await new Promise((r) => setTimeout(r, Number(delayMs)));
  return { feature: { feature_id: args.feature_id, title: "", status: "active", version: 1, created_at: "x", updated_at: "x", gates: {} } };
};
const runtime = new ToolRuntime({ layout: new WorkspaceLayout(root), clock: systemClock, env: {}, handlerLoader });
process.stdout.write("ready\n");
const r = await runtime.callTool("feature.init", { feature_id: "race", operation_id: operationId });
process.stdout.write(JSON.stringify({ status: r.idempotency_status, envelope_json: r.envelope_json }) + "\n");
