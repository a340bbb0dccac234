import os from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most test time is spent in child processes (the built CLI, agent CLIs, Chromium, git) or waiting
    // on them, not in the test files: one file more than there are cores keeps every core busy.
    maxWorkers: os.availableParallelism() + 1,
  },
});
