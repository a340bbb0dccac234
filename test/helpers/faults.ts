// Plants the special files an attacker (or an accident) can put where aop expects a regular file: a FIFO,
// a link to /dev/zero, a listening socket, a folder, and a sparse file over a size bound.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { atFileEnd } from "./file-end.js";

export const FAULTS = ["fifo", "dev-zero-link", "socket", "directory", "oversized"] as const;
export type Fault = (typeof FAULTS)[number];

/** Replace `file` by the fault (its folder is created); `oversizeBytes` is the size an oversized file gets. */
export async function plantFault(fault: Fault, file: string, oversizeBytes = 64 * 1024 * 1024): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.rmSync(file, { recursive: true, force: true });
  switch (fault) {
    case "fifo":
      execFileSync("mkfifo", [file]);
      return;
    case "dev-zero-link":
      fs.symlinkSync("/dev/zero", file);
      return;
    case "socket": {
      // A socket path is limited to ~108 bytes: bind it in a short folder, then move it into place.
      const short = fs.mkdtempSync(path.join(os.tmpdir(), "s-"));
      const server = net.createServer();
      atFileEnd(() => server.close());
      await new Promise<void>((resolve, reject) => server.once("error", reject).listen(path.join(short, "s"), resolve));
      fs.renameSync(path.join(short, "s"), file);
      fs.rmdirSync(short);
      return;
    }
    case "directory":
      fs.mkdirSync(file);
      return;
    case "oversized":
      // Sparse: the size a reader sees, without the disk space.
      fs.writeFileSync(file, "{");
      fs.truncateSync(file, oversizeBytes);
      return;
  }
}

/** The store's code for each fault, as errors and findings name it. */
export const FAULT_CODE: Record<Fault, string> = {
  fifo: "not_a_regular_file",
  "dev-zero-link": "path_outside_workspace",
  socket: "not_a_regular_file",
  directory: "not_a_regular_file",
  oversized: "file_too_large",
};
