// `aop report --serve` as a real process with many live-stream clients coming and going: the listeners
// it holds do not pile up (no MaxListenersExceededWarning), and it still serves afterwards.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { REPO_ROOT } from "../../helpers/paths.js";
import { get, openEvents, serveReport, type EventClient, type Served } from "../../helpers/report-serve.js";
import { tempWorkspace } from "../../helpers/tmp.js";

const PROBE = path.join(REPO_ROOT, "test", "workers", "listener-probe.cjs");
const RUN = "run:watched";
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The listeners the served process holds now (test/workers/listener-probe.cjs). */
async function probe(served: Served): Promise<number> {
  const before = served.stderr().split("aop-listener-probe ").length;
  served.child.kill("SIGUSR2");
  for (let i = 0; i < 200; i++) {
    const parts = served.stderr().split("aop-listener-probe ");
    if (parts.length > before) return (JSON.parse(parts[before]!.split("\n")[0]!) as { listeners: number }).listeners;
    await pause(10);
  }
  throw new Error(`no answer from the listener probe: ${served.stderr()}`);
}

/** The fewer of two counts 50 ms apart: a poll caught mid-read holds a listener for that instant. */
async function listeners(served: Served): Promise<number> {
  const a = await probe(served);
  await pause(50);
  return Math.min(a, await probe(served));
}

describe("aop report --serve with many clients", () => {
  it("20 clients of the live stream, one after another and at once: no listener piles up, and it still serves", async () => {
    const root = tempWorkspace();
    expect(runCli(["init", "--root", root]).code).toBe(0);
    expect(runCli(["feature", "list", "--root", root, "--run-id", RUN]).code).toBe(0);
    const served = await serveReport(root, ["--require", PROBE]);
    try {
      // One client first, so that whatever the server sets up once is in the baseline.
      const first = await openEvents(served.url, RUN);
      await pause(600);
      first.leave();
      await pause(400);
      const baseline = await listeners(served);

      for (let i = 0; i < 10; i++) {
        const client = await openEvents(served.url, RUN);
        await pause(300);
        client.leave();
      }
      const together: EventClient[] = await Promise.all(Array.from({ length: 10 }, () => openEvents(served.url, RUN)));
      await pause(500);
      const connected = await listeners(served);
      // Each stream polls every 250 ms: 3.5 s is 14 polls, past the 10 listeners Node warns at.
      await pause(3_500);
      expect(await listeners(served), "while 10 clients stay connected").toBeLessThanOrEqual(connected);
      expect(together.every((c) => c.text().includes("event: runs"))).toBe(true);
      for (const client of together) client.leave();
      // The server notices each leave at its next poll: how soon depends on the machine's load.
      await expect.poll(() => listeners(served), { message: "after every client left", timeout: 15_000, interval: 100 }).toBeLessThanOrEqual(baseline);

      expect((await get(served.url)).status).toBe(200);
      const again = await openEvents(served.url, RUN);
      await expect.poll(() => again.text(), { timeout: 5_000 }).toContain("event: runs");
      again.leave();
      expect(served.stderr()).not.toMatch(/MaxListenersExceededWarning|memory leak/);
    } finally {
      served.child.kill("SIGINT");
    }
    expect(await served.exited).toBe(0);
  });
});
