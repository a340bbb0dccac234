// `done` (CLI) and `checkpoint.done` (tool): optionally verify next_actions[0].done_when, then pop it.
// The command runs outside the file lock (it may take minutes); the pop re-checks that the verified
// action is still first, so a concurrent edit is never marked done by mistake.
import { AopError } from "../../core/errors.js";
import { actionDoneWhen, type Checkpoint, type NextAction } from "./checkpoint-types.js";
import { invalidCheckpointError, readSkill, type CheckpointEnv } from "./read-service.js";
import { runDoneWhen, verifyPassed, type VerifyResult } from "./verify-command.js";
import { markDone, type DoneOutcome } from "./write-service.js";

export interface DoneRequest {
  verify?: { timeoutMs: number; env: NodeJS.ProcessEnv; shell?: string; onOutput?: (chunk: Buffer) => void; signal?: AbortSignal };
  status?: Checkpoint["status"];
}

export interface DoneReport extends DoneOutcome {
  verify: VerifyResult | null;
}

function verifyFailure(result: VerifyResult): AopError {
  const why = result.timed_out ? "timed out" : result.exit_code === null ? "could not run" : `exited ${result.exit_code}`;
  return new AopError("checkpoint_verify_failed", `done_when ${why}, so nothing was marked done: ${result.command}`, {
    details: { command: result.command, exit_code: result.exit_code, timed_out: result.timed_out, output: result.output.slice(-4000) },
    hint: "make the check pass, or mark the action done without --verify",
  });
}

async function verifyFirst(env: CheckpointEnv, skill: string, verify: NonNullable<DoneRequest["verify"]>): Promise<{ expected: NextAction; result: VerifyResult }> {
  const entry = await readSkill(env, skill);
  if (!entry.checkpoint) throw invalidCheckpointError(entry, `cannot verify ${skill}`);
  const first = entry.checkpoint.next_actions?.[0];
  if (first === undefined) throw new AopError("checkpoint_queue_empty", `${skill} has no next action to verify`, { hint: `add one with \`checkpoint update ${skill} --next_actions+=<text>\`` });
  const command = actionDoneWhen(first);
  if (command === undefined) {
    throw new AopError("checkpoint_verify_failed", `next_actions[0] of ${skill} has no done_when to run`, { hint: "give the action a done_when ({text, done_when}), or mark it done without --verify" });
  }
  const result = await runDoneWhen({ command, cwd: env.layout.checkpointsProjectDir, timeoutMs: verify.timeoutMs, env: verify.env, ...(verify.shell ? { shell: verify.shell } : {}), ...(verify.onOutput ? { onOutput: verify.onOutput } : {}), ...(verify.signal ? { signal: verify.signal } : {}) });
  if (result.interrupted) {
    // Like an interrupted gate: nothing is marked done and nothing recorded, so a retry verifies again.
    throw new AopError("operation_cancelled", `done_when of ${skill} was interrupted (its command was killed): nothing was marked done`, { details: { skill, command: result.command, recorded: false } });
  }
  if (!verifyPassed(result)) throw verifyFailure(result);
  return { expected: first, result };
}

export async function completeNextAction(env: CheckpointEnv, skill: string, request: DoneRequest = {}): Promise<DoneReport> {
  const verified = request.verify ? await verifyFirst(env, skill, request.verify) : null;
  const outcome = await markDone(env, skill, { ...(verified ? { expected: verified.expected } : {}), ...(request.status ? { status: request.status } : {}) });
  return { ...outcome, verify: verified?.result ?? null };
}
