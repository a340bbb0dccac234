// Worker: takes a lock (optionally as if on another host), holds it for `holdMs`, releases it, says so.
// Args: lockPath holdMs staleMs [hostname]
import os from "node:os";
const [lockPath, holdMs, staleMs, hostname] = process.argv.slice(2);
if (hostname) os.hostname = () => hostname; // before the lock module reads it
const { acquireLock } = await import(process.env.AOP_DIST_URL + "/store/lock.js");
const release = await acquireLock(lockPath, { staleMs: Number(staleMs) });
process.stdout.write("holding\n");
setTimeout(() => {
  release();
  process.stdout.write("released\n");
}, Number(holdMs));
