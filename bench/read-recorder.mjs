// Preloaded (`node --import ./bench/read-recorder.mjs …`) to record which files under $AOP_BENCH_RECORD_ROOT
// a command reads and how many bytes, its worker threads' reads included; the recorder itself is
// read-recorder.cjs (a worker can preload only CommonJS).
import { createRequire } from "node:module";

createRequire(import.meta.url)("./read-recorder.cjs");
