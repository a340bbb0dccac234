import os from "node:os";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

// The suite is offline (loopback only), and a CA bundle named by NODE_EXTRA_CA_CERTS is parsed by every
// node process as it starts (some 50 ms of CPU each; the suite starts thousands: the built CLI, workers,
// servers). Its test processes and theirs start without it.
delete process.env.NODE_EXTRA_CA_CERTS;

// The files that drive a real agent CLI run for tens of seconds to two minutes each, in one worker. On a
// fresh clone vitest has no durations on record and starts the largest files first, which can leave one
// of these for the end of the run, alone on a core: they start first, the rest fill the other workers.
const AGENT_CLIENT_FILES = /\/test\/adapters\/hooks\/(openclaw-cli|opencode-cli|gemini-cli|codex-cli|claude-code)\.test\.ts$/;

class AgentClientsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((f) => AGENT_CLIENT_FILES.test(f.moduleId)), ...sorted.filter((f) => !AGENT_CLIENT_FILES.test(f.moduleId))];
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most test time is spent in child processes (the built CLI, agent CLIs, Chromium, git) or waiting
    // on them, not in the test files: one file more than there are cores keeps every core busy.
    maxWorkers: os.availableParallelism() + 1,
    sequence: { sequencer: AgentClientsFirst },
  },
});
