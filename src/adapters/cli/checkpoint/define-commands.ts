// The checkpoint subcommands, declared once for both `aop checkpoint …` and the `checkpoint` bin.
// Declarations only (flags, help, examples); each body lives in its own module, loaded when run.
import type { Command } from "commander";
import { examples, runCommand } from "../program/run-command.js";
import type { CliContext } from "../program/context.js";
import { addFlags, type FlagSpec } from "../flags/flags.js";
import { globalFlag } from "../flags/global-flags.js";

type Body = (ctx: CliContext, opts: Record<string, unknown>, ...args: unknown[]) => Promise<number | void>;

// A folder holding .checkpoints/ is a project for these commands (the Checkpoint Protocol's own marker).
const CHECKPOINT_RUN_OPTIONS = { checkpointsDirOption: "dir", rootMarkers: [".checkpoints"] } as const;

function lazy(load: () => Promise<{ run: Body }>, extra: { createsWorkspace?: boolean } = {}) {
  return runCommand(async (ctx, opts, ...args: unknown[]) => (await load()).run(ctx, opts, ...args), { ...CHECKPOINT_RUN_OPTIONS, ...extra });
}

export const CHECKPOINT_DIR_FLAG: FlagSpec = { flag: "dir", value: "<path>", description: "checkpoints folder (default: <root>/.checkpoints)" };

/** The `checkpoint` bin's own flags (in `aop`, --root and --json are global flags and --dir belongs to `aop checkpoint`). */
export const CHECKPOINT_PROGRAM_FLAGS: readonly FlagSpec[] = [globalFlag("root"), CHECKPOINT_DIR_FLAG, globalFlag("json")];

const VALIDATE_FLAGS = [{ flag: "strict", description: "warnings fail too" }] as const satisfies readonly FlagSpec[];

const OPERATION_ID_FLAG: FlagSpec = { flag: "operation-id", value: "<id>", description: "idempotency key (default: a fresh one)" };

/** A subcommand with its declared flags. */
function sub(group: Command, name: string, description: string, flags: readonly FlagSpec[] = []): Command {
  return addFlags(group.command(name).description(description), flags);
}

/** Adds every subcommand to `group`; `prefix` is how users invoke it ("aop checkpoint" or "checkpoint"). */
export function defineCheckpointCommands(group: Command, prefix: string): void {
  const ex = (...lines: string[]) => examples(...lines.map((l) => `${prefix} ${l}`));

  sub(group, "validate", "validate every checkpoint against Checkpoint Protocol 1.0; exit 1 on errors", VALIDATE_FLAGS)
    .addHelpText("after", ex("validate", "validate --strict --json", "validate --dir ../other-project/.checkpoints"))
    .action(lazy(() => import("./validate.js")));

  sub(group, "status", "decisions waiting on you, a table of every skill, then each skill's summary, next actions and blockers", [
    { flag: "brief", description: "only the decisions and the table" },
    { flag: "since", value: "<iso>", description: "only checkpoints updated at or after this ISO 8601 time" },
  ])
    .addHelpText("after", ex("status", "status --brief", "status --since 2026-03-01T00:00:00Z --json"))
    .action(lazy(() => import("./status.js")));

  sub(group, "next", "the single highest-priority action across all skills, and why")
    .addHelpText("after", ex("next", "next --json"))
    .action(lazy(() => import("./next.js")));

  sub(group, "doctor", "validation errors plus drift: missing project_dir, stale by status, missing generated files, finished tickets still queued", [
    { flag: "fail-on-warnings", description: "exit 1 on warnings too" },
  ])
    .addHelpText("after", ex("doctor", "doctor --fail-on-warnings --json"))
    .action(lazy(() => import("./doctor.js")));

  sub(group, "update", "set fields on dotted paths (--k=v, --k+=v appends, --k:json=<json>); restamps updated_at; refuses an invalid result; creates a missing file", [OPERATION_ID_FLAG])
    .argument("<skill>", "skill name (.checkpoints/<skill>.checkpoint.json)")
    .argument("[assignments...]", "--path=text | --path+=text | --path:json=<json> | --path:json+=<json> (a JSON null removes)")
    .allowUnknownOption()
    .addHelpText(
      "after",
      ex(
        "update architect --step=api-review --progress_table[1].status=complete",
        "update architect --next_actions+='Write the ADR for the queue choice'",
        `update architect --next_actions:json+='{"text":"Make tests pass","done_when":"npm test"}'`,
        "update architect --blockers[0]:json=null",
      ),
    )
    .action(lazy(() => import("./update.js")));

  sub(group, "done", "move next_actions[0] to the front of recently_done (at most 10); --verify runs its done_when first", [
    { flag: "verify", description: "run next_actions[0].done_when with your shell (and the policy's env_allowlist) and mark done only if it exits 0" },
    { flag: "timeout", value: "<seconds>", description: "--verify time limit (default: policy execution.default_step_timeout_seconds)" },
    { flag: "status", value: "<status>", description: "also set the status in the same write (in_progress | blocked | complete | failed)" },
    OPERATION_ID_FLAG,
  ])
    .argument("<skill>", "skill name")
    .addHelpText("after", ex("done architect", "done architect --verify", "done architect --status complete"))
    .action(lazy(() => import("./done.js")));

  sub(group, "init", "create the checkpoints folder and its .gitignore (idempotent)", [OPERATION_ID_FLAG])
    .addHelpText("after", ex("init", "init --dir ./agents/.checkpoints"))
    .action(lazy(() => import("./init.js"), { createsWorkspace: true }));

  sub(group, "list", "one line per checkpoint: skill, status, phase, step, updated, validity")
    .addHelpText("after", ex("list", "list --json"))
    .action(lazy(() => import("./list.js")));

  sub(group, "show", "print a skill's checkpoint (or every checkpoint) with its validation problems")
    .argument("[skill]", "skill name (default: all)")
    .addHelpText("after", ex("show architect", "show --json"))
    .action(lazy(() => import("./show.js")));

  sub(group, "reset", "move a skill's checkpoint into .checkpoints/history/ (never deletes)", [OPERATION_ID_FLAG])
    .argument("<skill>", "skill name")
    .addHelpText("after", ex("reset architect"))
    .action(lazy(() => import("./reset.js")));

  sub(group, "resume", "the orientation block for a new session (Markdown): where the skill stands, what needs the user, the next action, continue or ask")
    .argument("<skill>", "skill name")
    .addHelpText("after", ex("resume architect", "resume architect --json"))
    .action(lazy(() => import("./resume.js")));
}
