// The environment keys are looked up in: this process's variables and home folder.
import os from "node:os";
import type { KeyEnvironment } from "./signing-key.js";

export function processKeyEnvironment(): KeyEnvironment {
  return { env: process.env, homeDir: os.homedir() };
}
