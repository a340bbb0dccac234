// Preloaded (`node --import ./bench/read-recorder.mjs …`) to record which files under $AOP_BENCH_RECORD_ROOT
// a command reads and how many bytes: every workspace read goes through fs.openSync + fs.readSync (the
// store's bounded reader) or fs.readFileSync. Written to $AOP_BENCH_RECORD_OUT at exit as
// {files: {path: bytes}, listings: n}. Benchmarks use it to build a baseline that reads the same files.
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";

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
  syncBuiltinESMExports();
  process.on("exit", () => fs.writeFileSync(out, JSON.stringify({ files: Object.fromEntries(files), listings })));
}
