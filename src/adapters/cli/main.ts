// The `aop` program (global flags, one registered command per file under cli/commands/) and the entry
// of the CLI bundle: bin/aop.js runs `main`, bin/checkpoint.cjs `checkpointMain` and
// bin/continuity-doctor.cjs `continuityDoctorMain` (docs/startup.md).
import { Command } from "./commander-vendor.js";
import { provideValidatorLoader } from "../../catalog/load-validator.js";
import { readPackageVersion } from "./program/version.js";
import { runProgram } from "./program/run-program.js";
import { COMMANDS, requestedCommand } from "./program/command-registry.js";
import { AOP_GLOBAL_FLAGS } from "./flags/global-flags.js";
import { addFlags } from "./flags/flags.js";

/** The program with every command: the requested one fully (all of them for one that needs them), the others as help stubs. */
export async function buildProgram(argv: string[]): Promise<Command> {
  const program = new Command("aop");
  program
    .description("continuity and integrity for AI-agent workflows: checkpoints, replay timeline, evidence chain, doctor")
    .version(readPackageVersion(), "-V, --version", "print the version");
  addFlags(program, AOP_GLOBAL_FLAGS)
    .showSuggestionAfterError(true)
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    .addHelpText("after", "\nQuick start:\n  $ aop init\n  $ aop config check\n\nEvery command has --help with an example.\n");
  const wanted = COMMANDS.find((entry) => entry.name === requestedCommand(argv));
  const every = wanted !== undefined && "needsEveryCommand" in wanted;
  for (const entry of COMMANDS) {
    if (every || entry === wanted) (await entry.load()).register(program, entry.summary);
    else program.command(entry.name).description(entry.summary);
  }
  return program;
}

/**
 * The compiled schema validators, by module name. A literal pattern, so that the CLI bundle holds each
 * of them behind this import() (evaluated on first use) rather than asking a module loader at run time.
 */
function useBundledValidators(): void {
  provideValidatorLoader((moduleFile) => import(`../../catalog/generated/validators/${moduleFile}.js`));
}

/** `aop …` */
export async function main(argv: string[]): Promise<void> {
  useBundledValidators();
  await runProgram(await buildProgram(argv), argv);
}

/** `checkpoint …` (= `aop checkpoint …`, with the program named after the bin). */
export async function checkpointMain(argv: string[]): Promise<void> {
  useBundledValidators();
  const { buildCheckpointProgram } = await import("./program/checkpoint-program.js");
  await runProgram(buildCheckpointProgram(), argv);
}

/** `continuity-doctor …` (= `aop continuity doctor …`, with the program named after the bin). */
export async function continuityDoctorMain(argv: string[]): Promise<void> {
  useBundledValidators();
  const { buildContinuityDoctorProgram } = await import("./program/continuity-doctor-program.js");
  await runProgram(buildContinuityDoctorProgram(), argv);
}
