// The checkpoint subcommands, declared once for both `aop checkpoint …` and the `checkpoint` bin.
// Declarations only (flags, help, examples); each body lives in its own module, loaded when run.
import type { Command } from "commander";
import { examples, runCommand } from "../run-command.js";
import type { CliContext } from "../context.js";

type Body = (ctx: CliContext, opts: Record<string, unknown>, ...args: unknown[]) => Promise<number | void>;

// A folder holding .checkpoints/ is a project for these commands (the Checkpoint Protocol's own marker).
export const CHECKPOINT_RUN_OPTIONS = { checkpointsDirOption: "dir", rootMarkers: [".checkpoints"] } as const;

function lazy(load: () => Promise<{ run: Body }>, extra: { createsWorkspace?: boolean } = {}) {
  return runCommand(async (ctx, opts, ...args: unknown[]) => (await load()).run(ctx, opts, ...args), { ...CHECKPOINT_RUN_OPTIONS, ...extra });
}

export const CHECKPOINT_DIR_OPTION = ["--dir <path>", "checkpoints folder (default: <root>/.checkpoints)"] as const;

/** Adds every subcommand to `group`; `prefix` is how users invoke it ("aop checkpoint" or "checkpoint"). */
export function defineCheckpointCommands(group: Command, prefix: string): void {
  const ex = (...lines: string[]) => examples(...lines.map((l) => `${prefix} ${l}`));

  group
    .command("validate")
    .description("validate every checkpoint against Checkpoint Protocol 1.0; exit 1 on errors")
    .option("--strict", "warnings fail too")
    .addHelpText("after", ex("validate", "validate --strict --json", "validate --dir ../other-project/.checkpoints"))
    .action(lazy(() => import("./validate.js")));

  group
    .command("status")
    .description("decisions waiting on you, a table of every skill, then each skill's summary, next actions and blockers")
    .option("--brief", "only the decisions and the table")
    .option("--since <iso>", "only checkpoints updated at or after this ISO 8601 time")
    .addHelpText("after", ex("status", "status --brief", "status --since 2026-03-01T00:00:00Z --json"))
    .action(lazy(() => import("./status.js")));

  group
    .command("next")
    .description("the single highest-priority action across all skills, and why")
    .addHelpText("after", ex("next", "next --json"))
    .action(lazy(() => import("./next.js")));

  group
    .command("doctor")
    .description("validation errors plus drift: missing project_dir, stale by status, missing generated files, finished tickets still queued")
    .option("--fail-on-warnings", "exit 1 on warnings too")
    .addHelpText("after", ex("doctor", "doctor --fail-on-warnings --json"))
    .action(lazy(() => import("./doctor.js")));

  group
    .command("update")
    .description("set fields on dotted paths (--k=v, --k+=v appends, --k:json=<json>); restamps updated_at; refuses an invalid result; creates a missing file")
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

  group
    .command("done")
    .description("move next_actions[0] to the front of recently_done (at most 10); --verify runs its done_when first")
    .argument("<skill>", "skill name")
    .option("--verify", "run next_actions[0].done_when with your shell and mark done only if it exits 0")
    .option("--timeout <seconds>", "--verify time limit (default: policy execution.default_step_timeout_seconds)")
    .option("--status <status>", "also set the status in the same write (in_progress | blocked | complete | failed)")
    .addHelpText("after", ex("done architect", "done architect --verify", "done architect --status complete"))
    .action(lazy(() => import("./done.js")));

  group
    .command("init")
    .description("create the checkpoints folder and its .gitignore (idempotent)")
    .addHelpText("after", ex("init", "init --dir ./agents/.checkpoints"))
    .action(lazy(() => import("./init.js"), { createsWorkspace: true }));

  group
    .command("list")
    .description("one line per checkpoint: skill, status, phase, step, updated, validity")
    .addHelpText("after", ex("list", "list --json"))
    .action(lazy(() => import("./list.js")));

  group
    .command("show")
    .description("print a skill's checkpoint (or every checkpoint) with its validation problems")
    .argument("[skill]", "skill name (default: all)")
    .addHelpText("after", ex("show architect", "show --json"))
    .action(lazy(() => import("./show.js")));

  group
    .command("reset")
    .description("move a skill's checkpoint into .checkpoints/history/ (never deletes)")
    .argument("<skill>", "skill name")
    .addHelpText("after", ex("reset architect"))
    .action(lazy(() => import("./reset.js")));

  group
    .command("resume")
    .description("the orientation block for a new session (Markdown): where the skill stands, what needs the user, the next action, continue or ask")
    .argument("<skill>", "skill name")
    .addHelpText("after", ex("resume architect", "resume architect --json"))
    .action(lazy(() => import("./resume.js")));
}
