// Runs before every test file (vitest.config.ts, vitest.soak.config.ts): what the file leaves behind
// is undone when it ends (test/helpers/file-end.ts).
import { afterAll } from "vitest";
import { runFileEnd } from "../helpers/file-end.js";

afterAll(runFileEnd);
