import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import "../helpers/workers-env.js";
import { runWorkers, startWorker, waitForOutput } from "../helpers/processes.js";
import { tempDir } from "../helpers/tmp.js";
import { acquireLock, withLock } from "../../src/store/lock.js";
import { AopError } from "../../src/core/errors.js";

describe("cross-process lock", () => {
  it("4 processes × 2,000 locked increments of one counter give exactly 8,000", async () => {
    const dir = tempDir();
    const counter = path.join(dir, "counter");
    fs.writeFileSync(counter, "0");
    const results = await runWorkers("lock-counter.mjs", [0, 1, 2, 3].map(() => [counter, "2000"]));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(Number(fs.readFileSync(counter, "utf8"))).toBe(8000);
    expect(fs.existsSync(counter + ".lock")).toBe(false);
  }, 120_000);

  it("a holder killed with SIGKILL is reclaimed by the next acquirer within 1 s", async () => {
    const dir = tempDir();
    const lockPath = path.join(dir, "x.lock");
    const holder = startWorker("lock-holder.mjs", [lockPath]);
    await waitForOutput(holder.child, "holding");
    holder.child.kill("SIGKILL");
    await holder.done;
    expect(fs.existsSync(lockPath)).toBe(true);
    // Bounded at 1 s: acquireLock throws lock_timeout if the dead holder is not reclaimed in time.
    const release = await acquireLock(lockPath, { timeoutMs: 1_000, warn: () => undefined });
    release();
    expect(fs.existsSync(lockPath)).toBe(false);
  });

  it("records {pid, hostname, acquired_at} as the holder", async () => {
    const lockPath = path.join(tempDir(), "h.lock");
    await withLock(lockPath, () => {
      const holder = JSON.parse(fs.readFileSync(lockPath, "utf8"));
      expect(holder.pid).toBe(process.pid);
      expect(holder.hostname).toBe(os.hostname());
      expect(Number.isNaN(Date.parse(holder.acquired_at))).toBe(false);
    });
    expect(fs.existsSync(lockPath)).toBe(false);
  });

  it("reclaims a lock older than the age bound with a warning", async () => {
    const lockPath = path.join(tempDir(), "old.lock");
    fs.writeFileSync(lockPath, JSON.stringify({ pid: 1, hostname: "another-host", acquired_at: "2020-01-01T00:00:00.000Z" }));
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockPath, old, old);
    const warnings: string[] = [];
    const release = await acquireLock(lockPath, { staleMs: 5_000, warn: (m) => warnings.push(m) });
    release();
    expect(warnings.join("\n")).toMatch(/reclaimed lock .* old/);
  });

  it("fails with lock_timeout, never silently, when a live holder keeps it", async () => {
    const lockPath = path.join(tempDir(), "busy.lock");
    fs.writeFileSync(lockPath, JSON.stringify({ pid: process.ppid, hostname: "another-host", acquired_at: new Date().toISOString() }));
    await expect(acquireLock(lockPath, { timeoutMs: 150, staleMs: 60_000 })).rejects.toSatisfy((err: unknown) => err instanceof AopError && err.code === "lock_timeout");
    expect(fs.existsSync(lockPath)).toBe(true);
  });

  it("serialises callers inside one process in arrival order", async () => {
    const lockPath = path.join(tempDir(), "q.lock");
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4, 5].map((n) => withLock(lockPath, async () => {
      order.push(n);
      await new Promise((r) => setTimeout(r, 2));
    })));
    expect(order).toEqual([1, 2, 3, 4, 5]);
  });
});
