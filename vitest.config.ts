import os from "node:os";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// The suite is offline (loopback only), and a CA bundle named by NODE_EXTRA_CA_CERTS is parsed by every
// node process as it starts (some 50 ms of CPU each; the suite starts thousands: the built CLI, workers,
// servers). Its test processes and theirs start without it.
delete process.env.NODE_EXTRA_CA_CERTS;

// The OpenClaw file runs for about two minutes in one worker (three tests, one after the other, each
// starting OpenClaw several times). On a fresh clone vitest has no durations on record and starts the
// largest files first, which can leave this small file for the end of the run, alone on a core: it starts
// first. Only it: with all five agent clients' files started together, they took two to four times as
// long (docs/performance.md).
const LONGEST_FILE = /\/test\/adapters\/hooks\/openclaw-cli\.test\.ts$/;

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((f) => LONGEST_FILE.test(f.moduleId)), ...sorted.filter((f) => !LONGEST_FILE.test(f.moduleId))];
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // A test process runs file after file with the modules it has already imported: importing and
    // transforming the sources again for each of the 250 files cost about a sixth of the suite's CPU
    // (docs/performance.md). What a file leaves behind is undone by the setup file when it ends
    // (test/helpers/file-end.ts), so no file sees another's temp folders, servers or variables.
    isolate: false,
    setupFiles: ["test/setup/file-end.ts"],
    // Most test time is spent in child processes (the built CLI, agent CLIs, Chromium, git) or waiting
    // on them, not in the test files: one file more than there are cores keeps every core busy.
    maxWorkers: os.availableParallelism() + 1,
    sequence: { sequencer: LongestFirst },
  },
});
