// Parses `--args '<json>'` or `--args @file.json` into an arguments object, with errors that say what to fix.
import fs from "node:fs";
import { AopError } from "../../../core/errors.js";

const MAX_ARGS_FILE_BYTES = 16 * 1024 * 1024;

export function parseArgsOption(raw: string): Record<string, unknown> {
  let text = raw;
  let source = "--args";
  if (raw.startsWith("@")) {
    const file = raw.slice(1);
    source = file;
    let size: number;
    try {
      size = fs.statSync(file).size;
    } catch {
      throw new AopError("invalid_argument", `--args file ${file} does not exist`, { hint: "pass JSON inline (--args '{...}') or an existing file (--args @args.json)" });
    }
    if (size > MAX_ARGS_FILE_BYTES) throw new AopError("payload_too_large", `--args file ${file} is ${size} bytes; the limit is ${MAX_ARGS_FILE_BYTES}`);
    text = fs.readFileSync(file, "utf8");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new AopError("invalid_argument", `${source} is not valid JSON: ${(err as Error).message}`, { hint: `quote the JSON for your shell, e.g. --args '{"feature_id":"feat_a"}'` });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new AopError("invalid_argument", `${source} must be a JSON object (got ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value})`);
  }
  return value as Record<string, unknown>;
}
