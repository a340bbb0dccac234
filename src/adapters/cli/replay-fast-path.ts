// A commander-free route for `aop replay --run-id <id> [range and filter flags] [--json]`, the
// command people page through a run with. It recognises the flags itself and runs the same pipeline as
// the full program (policy, RBAC, schemas, the query recorded in the current run), through a runtime
// serving only the replay tools, and prints with the same code. Anything else (help, --list, --follow,
// --transport mcp, unknown or malformed flags) returns false and goes through the full program, so
// errors and help stay commander's. bin/aop.js runs it from a one-file bundle (scripts/bundle-bins.mjs).
import { provideValidators } from "../../catalog/load-validator.js";
import { createReplayRuntime } from "../../app/replay-runtime.js";
import type { TimelinePage } from "../../domains/replay/index.js";
import { identityFromGlobals, unwrap } from "./call-result.js";
import type { GlobalOptions } from "./context.js";
import { printReplayPage, readerContext, replayArgs } from "./output/replay-page.js";
import { PIPELINE_VALIDATORS } from "./route-validators.js";
import { decimalInteger } from "./flags.js";
import { runBody } from "./run-command.js";

/** Flags that take a value → the attribute name commander gives them; `int` ones must be whole numbers ≥ 0. */
const VALUE_FLAGS: Record<string, { name: string; int?: boolean }> = {
  "--root": { name: "root" },
  "--run-id": { name: "runId" },
  "--session-id": { name: "sessionId" },
  "--actor": { name: "actor" },
  "--transport": { name: "transport" },
  "--from-sequence": { name: "fromSequence", int: true },
  "--to-sequence": { name: "toSequence", int: true },
  "--limit": { name: "limit", int: true },
  "--feature-id": { name: "featureId" },
  "--tool": { name: "tool" },
  "--result": { name: "result" },
  "--idempotency": { name: "idempotency" },
};

/** The options of a plain page query, or null when the full program must handle argv. */
export function parseFastReplay(argv: readonly string[]): (Record<string, unknown> & GlobalOptions) | null {
  const opts: Record<string, unknown> = {};
  let sawCommand = false;
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    const eq = token.indexOf("=");
    const flag = VALUE_FLAGS[eq > 0 ? token.slice(0, eq) : token];
    if (token === "--json") opts.json = true;
    else if (flag) {
      const value = eq > 0 ? token.slice(eq + 1) : argv[++i];
      if (value === undefined || value === "" || (eq < 0 && value.startsWith("-"))) return null;
      if (flag.int) {
        const n = decimalInteger(value);
        if (n === null) return null;
        opts[flag.name] = n;
      } else opts[flag.name] = value;
    } else if (token === "replay" && !sawCommand) sawCommand = true;
    else return null;
  }
  if (!sawCommand || typeof opts.runId !== "string" || (opts.transport !== undefined && opts.transport !== "inprocess")) return null;
  return opts;
}

/** Runs the query when argv is a plain page query; false when the full program must handle it. */
export async function tryFastReplay(argv: readonly string[]): Promise<boolean> {
  const opts = parseFastReplay(argv);
  if (!opts) return false;
  // Literal paths, so the bundle holds these validators (and initialises the policy ones only when a policy.yaml needs them).
  provideValidators({
    ...PIPELINE_VALIDATORS,
    "input/replay.timeline_get": () => import("../../catalog/generated/validators/input__replay.timeline_get.js"),
    "output/replay.timeline_get": () => import("../../catalog/generated/validators/output__replay.timeline_get.js"),
  });
  await runBody(
    async (ctx) => {
      const runId = ctx.globals.runId!;
      const reader = readerContext(ctx);
      const runtime = await createReplayRuntime({ layout: ctx.layout, clock: ctx.clock, identity: identityFromGlobals(reader) });
      const page = unwrap<TimelinePage>((await runtime.callTool("replay.timeline_get", replayArgs(runId, opts))).envelope);
      printReplayPage(ctx, runId, page, opts);
      return 0;
    },
    opts,
    [],
  );
  return true;
}
