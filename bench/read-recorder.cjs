// Records which files under $AOP_BENCH_RECORD_ROOT a command reads and how many bytes (bench/read-recorder.mjs
// preloads it): every workspace read goes through fs.openSync + fs.readSync (the store's bounded reader) or
// fs.readFileSync. Worker threads get it too (the doctor audits timelines on one): each writes its own list
// beside $AOP_BENCH_RECORD_OUT when it ends, and the main thread merges them into the list at exit:
// {files: {path: bytes}, listings: n}. Benchmarks use it to build a baseline that reads the same files.
"use strict";
const fs = require("node:fs");
const threads = require("node:worker_threads");

const root = process.env.AOP_BENCH_RECORD_ROOT;
const out = process.env.AOP_BENCH_RECORD_OUT;
if (root && out) {
  const inside = (p) => typeof p === "string" && (p === root || p.startsWith(root + "/"));
  const files = new Map();
  const open = new Map(); // fd -> path
  let listings = 0;
  const { openSync, readSync, closeSync, readFileSync, readdirSync } = fs;
  fs.openSync = function (p, flags, ...rest) {
    const fd = openSync.call(this, p, flags, ...rest);
    const writing = typeof flags === "number" ? (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR)) !== 0 : typeof flags === "string" && /[wa+]/.test(flags);
    if (inside(p) && !writing) open.set(fd, p); // listed once read: folders are opened too (to fsync them)
    return fd;
  };
  fs.readSync = function (fd, ...rest) {
    const n = readSync.call(this, fd, ...rest);
    const p = open.get(fd);
    if (p !== undefined) files.set(p, (files.get(p) ?? 0) + n);
    return n;
  };
  fs.closeSync = function (fd) {
    open.delete(fd);
    return closeSync.call(this, fd);
  };
  fs.readFileSync = function (p, ...rest) {
    const data = readFileSync.call(this, p, ...rest);
    if (inside(p)) files.set(p, (files.get(p) ?? 0) + (typeof data === "string" ? Buffer.byteLength(data) : data.length));
    return data;
  };
  fs.readdirSync = function (p, ...rest) {
    if (inside(p)) listings++;
    return readdirSync.call(this, p, ...rest);
  };
  // Every worker the command starts records too (--import preloads do not reach workers; --require does).
  const { Worker } = threads;
  threads.Worker = class extends Worker {
    constructor(file, options = {}) {
      super(file, { ...options, execArgv: [...(options.execArgv ?? process.execArgv), "--require", __filename] });
    }
  };
  require("node:module").syncBuiltinESMExports();
  const threadOut = (id) => `${out}.thread-${id}`;
  if (!threads.isMainThread) {
    process.on("exit", () => fs.writeFileSync(threadOut(threads.threadId), JSON.stringify({ files: Object.fromEntries(files), listings })));
  } else {
    process.on("exit", () => {
      const dir = require("node:path").dirname(out);
      for (const name of fs.readdirSync(dir)) {
        const file = `${dir}/${name}`;
        if (!file.startsWith(`${out}.thread-`)) continue;
        const worker = JSON.parse(readFileSync(file, "utf8"));
        for (const [p, n] of Object.entries(worker.files)) files.set(p, (files.get(p) ?? 0) + n);
        listings += worker.listings;
        fs.rmSync(file);
      }
      fs.writeFileSync(out, JSON.stringify({ files: Object.fromEntries(files), listings }));
    });
  }
}
