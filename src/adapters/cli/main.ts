// The `aop` program: global flags, one registered command per file under cli/commands/.
import { Command } from "./commander-vendor.js";
import { readPackageVersion } from "./version.js";
import { runProgram } from "./run-program.js";
import { COMMANDS, requestedCommand } from "./command-registry.js";

/** The program with every command: the requested one fully, the others as help stubs. */
export async function buildProgram(argv: string[] = []): Promise<Command> {
  const program = new Command("aop");
  program
    .description("continuity and integrity for AI-agent workflows: checkpoints, replay timeline, evidence chain, doctor")
    .version(readPackageVersion(), "-V, --version", "print the version")
    .option("--root <dir>", "workspace root (default: AOP_ROOT, else the nearest folder with .aop/, agentic/orchestrator/ or .git)")
    .option("--transport <kind>", "inprocess | mcp (spawn `aop mcp` and call through an MCP client)", "inprocess")
    .option("--run-id <id>", "run id recorded for tool calls (default: AOP_RUN_ID, the active lease, adhoc-<date>)")
    .option("--session-id <id>", "session id recorded for tool calls (default: AOP_SESSION_ID)")
    .option("--actor <role>", "role calling tools: orchestrator | planner | builder | qa | system (default: AOP_ACTOR, orchestrator)")
    .option("--json", "print the machine payload only")
    .showSuggestionAfterError(true)
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    .addHelpText("after", "\nQuick start:\n  $ aop init\n  $ aop config check\n\nEvery command has --help with an example.\n");
  const wanted = requestedCommand(argv);
  for (const entry of COMMANDS) {
    if (entry.name === wanted) (await entry.load()).register(program, entry.summary);
    else program.command(entry.name).description(entry.summary);
  }
  return program;
}

export async function main(argv: string[]): Promise<void> {
  await runProgram(await buildProgram(argv), argv);
}
