// aop mcp: serve every catalog tool, the orientation resources and the prompts over MCP stdio (for
// Claude Code, Codex, Cursor, ...) until the client goes away or a signal comes.
import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { addFlags, type FlagSpec } from "../flags.js";
import { examples, runCommand } from "../run-command.js";

const MCP_FLAGS = [{ flag: "checkpoints-dir", value: "<path>", description: "the checkpoints folder the checkpoint.* tools serve (default: <root>/.checkpoints)" }] as const satisfies readonly FlagSpec[];

export function register(program: Command, summary: string): void {
  addFlags(program.command("mcp").description(summary), MCP_FLAGS)
    .addHelpText(
      "after",
      "\nIdentity for every call: --actor, --session-id, --run-id (or AOP_ACTOR, AOP_SESSION_ID, AOP_RUN_ID).\nStdout carries only JSON-RPC; logs go to stderr.\n" +
        examples("aop mcp --root /path/to/workspace", "aop mcp --actor builder --session-id sess-42"),
    )
    .action(runCommand(serveMcp, { checkpointsDirOption: "checkpointsDir" }));
}

/** How long calls in flight get to settle (a gate: kill its steps, write its timeline entry) before exit. */
const SHUTDOWN_GRACE_MS = 5_000;
/** The catalog self-check runs once the handshake is answered, or after this long without one. */
const SELF_CHECK_AT_MS = 1_000;

async function serveMcp(ctx: CliContext): Promise<number | void> {
  const [{ createRuntime, resolveActor }, { serveMcp }, { identityFromGlobals }, { readPackageVersion }] = await Promise.all([
    import("../../../app/create-runtime.js"),
    import("../../mcp/server.js"),
    import("../call-result.js"),
    import("../version.js"),
  ]);
  resolveActor(ctx.globals.actor, process.env); // fail fast on a bad --actor, before serving
  // Aborted when the client goes away (stdin closes) or on SIGTERM/SIGINT: calls in flight are
  // interrupted (a gate kills its steps and records nothing, docs/evidence.md), then we exit.
  const interrupt = new AbortController();
  const runtime = await createRuntime({ layout: ctx.layout, clock: ctx.clock, identity: identityFromGlobals(ctx), signal: interrupt.signal, transport: "mcp", warn: (m) => ctx.err(`aop mcp: warning: ${m}`) });
  const doctorFamilies = async () => (await import("../../../app/doctor-checks.js")).DOCTOR_FAMILIES;
  const served = await serveMcp({ runtime, layout: ctx.layout, clock: ctx.clock, env: process.env, doctorFamilies }, readPackageVersion());
  // MCP calls no Claude Code session hook adopted in time are filed in their own run: soon after
  // start (not before the handshake) and at the end.
  const sweep = async () => {
    const { sweepHandoffs } = await import("../../../domains/replay/index.js");
    const { loadPolicyTolerant } = await import("../../../config/policy-loader.js");
    await sweepHandoffs(ctx.layout, (await loadPolicyTolerant(ctx.layout)).policy, ctx.clock, (m) => ctx.err(`aop mcp: warning: ${m}`));
  };
  setTimeout(() => void sweep(), 2000).unref();
  // The catalog self-check loads every domain's handlers: it runs once the handshake is answered (so
  // the client is not kept waiting, and the answer does not share the core with it), or after a second
  // without one. A broken install still stops the server at once.
  let checking = false;
  const selfCheck = () => {
    if (checking) return;
    checking = true;
    void import("../../../app/handler-registry.js")
      .then(async ({ toolSurfaceProblems }) => {
        const problems = await toolSurfaceProblems();
        if (problems.length > 0) throw new Error(`tool catalog self-check failed: ${problems.join("; ")}`);
      })
      .catch((err: unknown) => {
        process.stderr.write(`aop mcp: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      });
  };
  void served.answered.then(() => setImmediate(selfCheck));
  setTimeout(selfCheck, SELF_CHECK_AT_MS).unref();
  // The transport also ends on its own when stdin ends (it may not emit 'close'): that is the client going too.
  const reason = await new Promise<"client_gone" | NodeJS.Signals>((resolve) => {
    void served.closed.then(() => resolve("client_gone"));
    process.stdin.once("close", () => resolve("client_gone"));
    process.once("SIGTERM", () => resolve("SIGTERM"));
    process.once("SIGINT", () => resolve("SIGINT"));
  });
  interrupt.abort(reason);
  await runtime.whenIdle(SHUTDOWN_GRACE_MS);
  // Anything still running (a call that did not settle in time) dies with us rather than outliving us.
  const { killRunningSteps } = await import("../../../domains/gates/index.js");
  killRunningSteps();
  await sweep();
  if (reason === "client_gone") return 0;
  // Stdin is still open after a signal: leave once the last answers are flushed.
  process.stdout.write("", () => process.exit(reason === "SIGINT" ? 130 : 143));
}
