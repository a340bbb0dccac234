// Where command output goes (src/adapters/stdout.ts): anything but a terminal is written with
// fs.writeSync — a file, /dev/null, a pipe, a socket — and a pipe that turns out non-blocking (EAGAIN)
// hands the rest, and every later write, to process.stdout in order.
import fs from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.restoreAllMocks();
  vi.resetModules();
});

/** A fresh copy of the module (it decides once per process), with fd 1 looking like `kind`. */
async function stdoutModule(kind: "fifo" | "socket") {
  vi.spyOn(fs, "fstatSync").mockReturnValue({ isFile: () => false, isFIFO: () => kind === "fifo", isSocket: () => kind === "socket", isCharacterDevice: () => false } as fs.Stats);
  return import("../../../src/adapters/stdout.js");
}

describe("writeStdout off a terminal", () => {
  it("writes a pipe's and a socket's output with fs.writeSync, in full, and never creates process.stdout", async () => {
    for (const kind of ["fifo", "socket"] as const) {
      const { writeStdout, stdoutTarget } = await stdoutModule(kind);
      const taken: Buffer[] = [];
      // A pipe takes at most 5 bytes a write: the rest is written by the next call.
      vi.spyOn(fs, "writeSync").mockImplementation(((fd: number, buffer: Buffer, offset: number, length: number) => {
        expect(fd).toBe(1);
        const n = Math.min(5, length);
        taken.push(Buffer.from(buffer.subarray(offset, offset + n)));
        return n;
      }) as typeof fs.writeSync);
      const stream = vi.spyOn(process.stdout, "write");
      writeStdout("first line ✓\n");
      writeStdout("second\n");
      expect(Buffer.concat(taken).toString("utf8")).toBe("first line ✓\nsecond\n");
      expect(stdoutTarget.isTTY).toBe(false);
      expect(stream).not.toHaveBeenCalled();
      vi.restoreAllMocks();
      vi.resetModules();
    }
  });

  it("a non-blocking pipe that is full (EAGAIN): the rest of that write and every later one go to process.stdout, in order", async () => {
    const { writeStdout } = await stdoutModule("fifo");
    const direct: Buffer[] = [];
    let calls = 0;
    vi.spyOn(fs, "writeSync").mockImplementation(((_fd: number, buffer: Buffer, offset: number, length: number) => {
      if (++calls > 1) throw Object.assign(new Error("EAGAIN: resource temporarily unavailable, write"), { code: "EAGAIN" });
      direct.push(Buffer.from(buffer.subarray(offset, offset + Math.min(4, length))));
      return Math.min(4, length);
    }) as typeof fs.writeSync);
    const streamed: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation(((chunk: string | Uint8Array) => {
      streamed.push(Buffer.from(chunk).toString("utf8"));
      return true;
    }) as typeof process.stdout.write);
    writeStdout("0123456789\n");
    writeStdout("later\n");
    expect(Buffer.concat(direct).toString("utf8") + streamed.join("")).toBe("0123456789\nlater\n");
    expect(calls).toBe(2); // after EAGAIN, no further direct write is tried
  });

  it("another write error is not swallowed", async () => {
    const { writeStdout } = await stdoutModule("socket");
    vi.spyOn(fs, "writeSync").mockImplementation((() => {
      throw Object.assign(new Error("EIO: i/o error, write"), { code: "EIO" });
    }) as typeof fs.writeSync);
    expect(() => writeStdout("x\n")).toThrow(/EIO/);
  });
});
