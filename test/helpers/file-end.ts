// What a test file leaves behind — temp folders, listening servers, mounts, a variable its child
// processes inherit — undone when the file ends. Test processes run many files one after another
// (vitest.config.ts: isolate is off), and a helper module is evaluated once per process, so a hook the
// helper registered itself would run for the first file only; test/setup/file-end.ts runs these for
// every file instead.
const tasks: (() => void)[] = [];

/** Runs `task` when the current test file ends (last registered, first run: a mount before its folder). */
export function atFileEnd(task: () => void): void {
  tasks.push(task);
}

/** Runs and forgets every task registered so far (test/setup/file-end.ts, after each file). */
export function runFileEnd(): void {
  const errors: unknown[] = [];
  for (let task = tasks.pop(); task !== undefined; task = tasks.pop()) {
    try {
      task();
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length > 0) throw new AggregateError(errors, "cleaning up after the test file failed");
}

/** Sets an environment variable for the rest of the current test file (its child processes inherit it). */
export function setEnvForFile(name: string, value: string): void {
  const before = process.env[name];
  process.env[name] = value;
  atFileEnd(() => {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
  });
}
