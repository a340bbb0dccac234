// Signalling a step's whole process group and waiting until it is gone. Steps are spawned detached, so
// each is the leader of its own group and `kill(-pgid)` reaches every process it started.
import fs from "node:fs";

export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is already empty
  }
}

/** A zombie (dead, not yet reaped by its parent) counts as gone: it can no longer run or write. */
export function processIsRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no /proc: trust kill(0)
  }
}

/** Live (non-zombie) members of a process group; without /proc, kill(0) decides (zombies included). */
function groupHasLiveMembers(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // Fields after the command name: state ppid pgrp ...
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z") return true;
  }
  return false;
}

/** SIGKILL the group and wait (bounded) until none of its processes can still write to the step's log. */
export async function killGroupAndWait(pgid: number, boundMs = 2_000): Promise<void> {
  if (!signalGroup(pgid, "SIGKILL")) return;
  const deadline = Date.now() + boundMs;
  while (groupHasLiveMembers(pgid) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
