// Worker: runs `aop <args>` and SIGKILLs it the moment `watched` changes (size or mtime), like a crash
// right after a write. Prints "killed" or "finished" on stdout.
import { spawn } from "node:child_process";
import fs from "node:fs";
const [bin, watched, ...args] = process.argv.slice(2);
const stamp = () => {
  try {
    const s = fs.statSync(watched);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return "absent";
  }
};
const before = stamp();
const child = spawn(process.execPath, [bin, ...args], { stdio: "ignore" });
let killed = false;
const poll = () => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  if (stamp() !== before) {
    child.kill("SIGKILL");
    killed = true;
    return;
  }
  setImmediate(poll);
};
poll();
child.on("close", () => process.stdout.write(killed ? "killed\n" : "finished\n"));
