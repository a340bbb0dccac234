import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import "../helpers/workers-env.js";
import { runWorkers, startWorker, waitForOutput } from "../helpers/processes.js";
import { tempDir } from "../helpers/tmp.js";
import { acquireLock, withLock } from "../../src/store/lock.js";
import { AopError } from "../../src/core/errors.js";
import { bySuite } from "../helpers/soak.js";

// `npm test` counts to 1,600; the soak run to 8,000 (test/helpers/soak.ts).
const INCREMENTS = bySuite(400, 2_000);

describe("cross-process lock", () => {
  it(`4 processes × ${INCREMENTS.toLocaleString("en-US")} locked increments of one counter give exactly ${(4 * INCREMENTS).toLocaleString("en-US")}`, async () => {
    const dir = tempDir();
    const counter = path.join(dir, "counter");
    fs.writeFileSync(counter, "0");
    const results = await runWorkers("lock-counter.mjs", [0, 1, 2, 3].map(() => [counter, String(INCREMENTS)]));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(Number(fs.readFileSync(counter, "utf8"))).toBe(4 * INCREMENTS);
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

describe("lock ownership (docs/foundation.md, Locks: release removes only its own lock, a live holder is never reclaimed)", () => {
  const holderOf = (lockPath: string) => JSON.parse(fs.readFileSync(lockPath, "utf8")) as { pid: number; token: string };

  it("after B reclaims a stalled holder A (another host), A's late release leaves B's lock in place", async () => {
    const lockPath = path.join(tempDir(), "shared.lock");
    const a = startWorker("lock-holder-timed.mjs", [lockPath, "1500", "600", "other-host"]);
    await waitForOutput(a.child, "holding");
    a.child.kill("SIGSTOP"); // A stops refreshing: to B its lock goes stale
    const warnings: string[] = [];
    const releaseB = await acquireLock(lockPath, { staleMs: 600, timeoutMs: 5_000, warn: (m) => warnings.push(m) });
    expect(warnings.join("\n")).toMatch(/reclaimed lock .* without a refresh/);
    const mine = holderOf(lockPath);
    expect(mine.pid).toBe(process.pid);
    a.child.kill("SIGCONT");
    await waitForOutput(a.child, "released");
    await a.done;
    // A's release found a lock that is not its own and left it alone.
    expect(holderOf(lockPath)).toEqual(mine);
    releaseB();
    expect(fs.existsSync(lockPath)).toBe(false);
  }, 20_000);

  it("a long holder on another host refreshes its lock and is not reclaimed past the age bound", async () => {
    const lockPath = path.join(tempDir(), "long.lock");
    const a = startWorker("lock-holder-timed.mjs", [lockPath, "2500", "600", "other-host"]);
    await waitForOutput(a.child, "holding");
    // Waiting 1.5 s is 2.5 age bounds: without refreshes the lock would be taken over.
    await expect(acquireLock(lockPath, { staleMs: 600, timeoutMs: 1_500, warn: () => undefined })).rejects.toMatchObject({ code: "lock_timeout" });
    await waitForOutput(a.child, "released");
    await a.done;
  }, 20_000);

  it("a live holder on this host is never reclaimed, however old its lock looks", async () => {
    const lockPath = path.join(tempDir(), "live.lock");
    const a = startWorker("lock-holder.mjs", [lockPath]);
    await waitForOutput(a.child, "holding");
    const old = new Date(Date.now() - 3_600_000);
    fs.utimesSync(lockPath, old, old);
    await expect(acquireLock(lockPath, { staleMs: 100, timeoutMs: 600, warn: () => undefined })).rejects.toMatchObject({ code: "lock_timeout" });
    expect(holderOf(lockPath).pid).toBe(a.child.pid);
    a.child.kill("SIGKILL");
    await a.done;
    (await acquireLock(lockPath, { timeoutMs: 1_000 }))();
  }, 20_000);

  it("a lock whose pid now belongs to a process started after it was taken is reclaimed (pid reuse)", async () => {
    const lockPath = path.join(tempDir(), "reused.lock");
    // This test process is alive, but it started long after 2020: the record cannot be its own.
    fs.writeFileSync(lockPath, JSON.stringify({ pid: process.pid, hostname: os.hostname(), acquired_at: "2020-01-01T00:00:00.000Z", token: "old" }));
    const release = await acquireLock(lockPath, { timeoutMs: 1_000 });
    expect(holderOf(lockPath).token).not.toBe("old");
    release();
  });

  it("a release never removes a lock file someone else created after ours was removed", async () => {
    const lockPath = path.join(tempDir(), "replaced.lock");
    const release = await acquireLock(lockPath);
    fs.rmSync(lockPath); // removed by hand ("remove the lock file if its holder is gone")
    fs.writeFileSync(lockPath, JSON.stringify({ pid: process.ppid, hostname: os.hostname(), acquired_at: new Date().toISOString(), token: "b" }));
    release();
    expect(holderOf(lockPath).token).toBe("b");
  });

  it("callers waiting in this process's queue honour their own timeout", async () => {
    const lockPath = path.join(tempDir(), "queued.lock");
    const release = await acquireLock(lockPath);
    await expect(acquireLock(lockPath, { timeoutMs: 100 })).rejects.toMatchObject({ code: "lock_timeout", message: expect.stringMatching(/waiting behind other callers in this process/) });
    const later = acquireLock(lockPath, { timeoutMs: 5_000 });
    release();
    (await later)(); // the queue went on after the timed-out waiter left it
    expect(fs.existsSync(lockPath)).toBe(false);
  });

  it("records a fresh random token per acquisition", async () => {
    const lockPath = path.join(tempDir(), "token.lock");
    const tokens = new Set<string>();
    for (let i = 0; i < 3; i++) await withLock(lockPath, () => void tokens.add(holderOf(lockPath).token));
    expect(tokens.size).toBe(3);
    for (const t of tokens) expect(t).toMatch(/^[0-9a-f]{16}$/);
  });

  describe("the removal guard on release (docs/foundation.md, Locks)", () => {
    /** How often `release` opens the lock's guard file. */
    const guardOpensDuring = (lockPath: string, release: () => void): number => {
      const opens = vi.spyOn(fs, "openSync");
      try {
        release();
        return opens.mock.calls.filter(([file]) => file === `${lockPath}.reclaim`).length;
      } finally {
        opens.mockRestore();
      }
    };

    it("a holder whose lock was refreshed lately removes it without the guard", async () => {
      const lockPath = path.join(tempDir(), "fresh.lock");
      const release = await acquireLock(lockPath);
      expect(guardOpensDuring(lockPath, release)).toBe(0);
      expect(fs.existsSync(lockPath)).toBe(false);
    });

    it("a holder whose refreshes stalled past half the age bound takes the guard, and still removes its lock", async () => {
      const lockPath = path.join(tempDir(), "stalled.lock");
      const release = await acquireLock(lockPath, { staleMs: 200 });
      // Block this thread past half the bound: the refresh timer cannot run, as in a frozen holder.
      const until = Date.now() + 150;
      while (Date.now() < until) {
        // spin
      }
      expect(guardOpensDuring(lockPath, release)).toBe(1);
      expect(fs.existsSync(lockPath)).toBe(false);
      expect(fs.existsSync(`${lockPath}.reclaim`)).toBe(false);
    });

    it("a holder whose lock file aged without it noticing (the machine slept) takes the guard", async () => {
      const lockPath = path.join(tempDir(), "slept.lock");
      const release = await acquireLock(lockPath);
      // This process's monotonic clock does not run while the machine sleeps; the file's age, which a
      // reclaimer elsewhere judges, does.
      const then = new Date(Date.now() - 60_000);
      fs.utimesSync(lockPath, then, then);
      expect(guardOpensDuring(lockPath, release)).toBe(1);
      expect(fs.existsSync(lockPath)).toBe(false);
    });

    it("a holder that stalled and refreshed again when it resumed still takes the guard", async () => {
      const lockPath = path.join(tempDir(), "resumed.lock");
      const release = await acquireLock(lockPath, { staleMs: 200 });
      const until = Date.now() + 150;
      while (Date.now() < until) {
        // spin past half the bound
      }
      await new Promise((resolve) => setTimeout(resolve, 0)); // the overdue refresh runs first, as on resuming
      expect(guardOpensDuring(lockPath, release)).toBe(1);
      expect(fs.existsSync(lockPath)).toBe(false);
    });
  });

  it("a lock whose record cannot be read for a passing reason (EMFILE) is judged by its file's age, not removed", async () => {
    const lockPath = path.join(tempDir(), "busy.lock");
    fs.writeFileSync(lockPath, JSON.stringify({ pid: 4242, hostname: "other-host", acquired_at: new Date().toISOString(), token: "theirs" }));
    const open = fs.openSync;
    // Reading the record fails; creating the lock (O_CREAT) still works as it would.
    vi.spyOn(fs, "openSync").mockImplementation((file, flags, ...rest) => {
      if (file === lockPath && typeof flags === "number" && (flags & fs.constants.O_CREAT) === 0) throw Object.assign(new Error("EMFILE: too many open files"), { code: "EMFILE" });
      return open(file, flags, ...(rest as [fs.Mode]));
    });
    try {
      await expect(acquireLock(lockPath, { timeoutMs: 200 })).rejects.toMatchObject({ code: "lock_timeout" });
      expect(fs.existsSync(lockPath)).toBe(true);
      // The same lock left for longer than the age bound: reclaimed as before.
      const old = new Date(Date.now() - 60_000);
      fs.utimesSync(lockPath, old, old);
      const release = await acquireLock(lockPath, { timeoutMs: 2000, warn: () => {} });
      release();
    } finally {
      vi.restoreAllMocks();
    }
  });

  it("a reclaimer that judged a lock stale leaves it when its holder refreshed it before the reclaim", async () => {
    const lockPath = path.join(tempDir(), "refreshed.lock");
    fs.writeFileSync(lockPath, JSON.stringify({ pid: 4242, hostname: "other-host", acquired_at: new Date().toISOString(), token: "theirs" }));
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(lockPath, old, old); // stale to anyone who looks now
    // The removal guard, held by a live process on this host: the reclaimer judges the lock, then waits.
    const guard = `${lockPath}.reclaim`;
    fs.writeFileSync(guard, JSON.stringify({ pid: process.pid, hostname: os.hostname(), acquired_at: new Date().toISOString(), token: "guard" }));
    const b = startWorker("lock-acquirer.mjs", [lockPath, "600", "1500"]);
    await waitForOutput(b.child, "trying");
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The holder on the other host comes back and refreshes its lock every third of the bound.
    const touch = () => {
      const now = new Date();
      fs.utimesSync(lockPath, now, now);
    };
    touch();
    const refresh = setInterval(touch, 100);
    try {
      fs.rmSync(guard);
      const { stdout } = await b.done;
      expect(stdout).not.toMatch(/acquired|reclaimed/);
      expect(stdout).toMatch(/lock_timeout/);
      expect(holderOf(lockPath).token).toBe("theirs");
    } finally {
      clearInterval(refresh);
    }
  }, 20_000);
});
