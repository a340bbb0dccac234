// Waiting for what another process does (a step started or killed, an entry written). The wait is a
// number of 25 ms polls, not a wall-clock deadline: a pause of the test process itself (a long garbage
// collection on a loaded host) must not use up the time the other process has to act.
const POLL_MS = 25;

/** Polls `ok` until it holds or about `ms` of polling has passed; whether it held. */
export async function waitFor(ok: () => boolean, ms: number): Promise<boolean> {
  for (let polls = Math.ceil(ms / POLL_MS); polls > 0; polls--) {
    if (ok()) return true;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return ok();
}

/** Like waitFor, but a wait that runs out is an error naming `what`. */
export async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  if (!(await waitFor(ok, ms))) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}
