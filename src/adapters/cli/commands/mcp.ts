// aop mcp: serve every catalog tool over MCP stdio (for Claude Code, Codex, Cursor, ...).
import type { Command } from "commander";
import { examples, runCommand } from "../run-command.js";

export function register(program: Command, summary: string): void {
  program
    .command("mcp")
    .description(summary)
    .addHelpText(
      "after",
      "\nIdentity for every call: --actor, --session-id, --run-id (or AOP_ACTOR, AOP_SESSION_ID, AOP_RUN_ID).\nStdout carries only JSON-RPC; logs go to stderr.\n" +
        examples("aop mcp --root /path/to/workspace", "aop mcp --actor builder --session-id sess-42"),
    )
    .action(
      runCommand(async (ctx) => {
        const { createRuntime } = await import("../../../app/create-runtime.js");
        const { serveMcp } = await import("../../mcp/server.js");
        const { readPackageVersion } = await import("../version.js");
        const { identityFromGlobals } = await import("../tool-session.js");
        const { resolveActor } = await import("../../../app/create-runtime.js");
        resolveActor(ctx.globals.actor, process.env); // fail fast on a bad --actor, before serving
        const runtime = await createRuntime({ layout: ctx.layout, clock: ctx.clock, identity: identityFromGlobals(ctx), warn: (m) => ctx.err(`aop mcp: warning: ${m}`) });
        await serveMcp(runtime, readPackageVersion());
        // The catalog self-check loads every domain's handlers; it runs as soon as the server is up
        // rather than before, so clients are not kept waiting for the handshake. A broken install
        // still stops the server at once.
        void import("../../../app/handler-registry.js")
          .then(async ({ toolSurfaceProblems }) => {
            const problems = await toolSurfaceProblems();
            if (problems.length > 0) throw new Error(`tool catalog self-check failed: ${problems.join("; ")}`);
          })
          .catch((err: unknown) => {
            process.stderr.write(`aop mcp: ${err instanceof Error ? err.message : String(err)}\n`);
            process.exit(1);
          });
        // Serve until the client closes stdin; gate steps still running are then killed with their
        // process groups (they do not die with us otherwise).
        await new Promise<void>((resolve) => process.stdin.once("close", resolve));
        const { killRunningSteps } = await import("../../../domains/gates/index.js");
        killRunningSteps();
      }),
    );
}
