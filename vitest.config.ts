import os from "node:os";
import { defineConfig } from "vitest/config";

// The suite is offline (loopback only), and a CA bundle named by NODE_EXTRA_CA_CERTS is parsed by every
// node process as it starts (some 50 ms of CPU each; the suite starts thousands: the built CLI, workers,
// servers). Its test processes and theirs start without it.
delete process.env.NODE_EXTRA_CA_CERTS;

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
