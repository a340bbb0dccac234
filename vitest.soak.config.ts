// `npm run test:soak`: the stress tests at full size (test/helpers/soak.ts) — every test file that
// imports the soak helper, run with AOP_TEST_SOAK=1. `npm test` runs the same files at their quick size.
import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";

const soakFiles = (fs.readdirSync("test", { recursive: true }) as string[])
  .map((f) => path.join("test", f))
  .filter((f) => f.endsWith(".test.ts") && /from "[./]*helpers\/soak\.js"/.test(fs.readFileSync(f, "utf8")));

// The suite is offline (loopback only), and a CA bundle named by NODE_EXTRA_CA_CERTS is parsed by every
// node process as it starts (some 50 ms of CPU each; the suite starts thousands: the built CLI, workers,
// servers). Its test processes and theirs start without it.
delete process.env.NODE_EXTRA_CA_CERTS;

export default defineConfig({
  test: {
    include: soakFiles,
    env: { AOP_TEST_SOAK: "1" },
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: "forks",
    // What each file leaves behind is undone when it ends (test/helpers/file-end.ts).
    setupFiles: ["test/setup/file-end.ts"],
    // One file at a time: each is a stress run of its own, and their loads would add up.
    fileParallelism: false,
  },
});
