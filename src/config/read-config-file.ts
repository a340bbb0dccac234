// Reads a YAML (or JSON) config file into a value, or a problem naming the file, line and column.
import fs from "node:fs";
import type { ConfigProblem } from "./policy-types.js";

export const MAX_CONFIG_BYTES = 1024 * 1024;

export type ReadResult = { ok: true; value: unknown; exists: true } | { ok: true; value: undefined; exists: false } | { ok: false; problem: ConfigProblem };

export async function readYamlFile(file: string, displayName: string): Promise<ReadResult> {
  let text: string;
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return { ok: false, problem: { file: displayName, path: "", message: "is not a regular file" } };
    if (stat.size > MAX_CONFIG_BYTES) {
      return { ok: false, problem: { file: displayName, path: "", message: `is ${stat.size} bytes; the limit is ${MAX_CONFIG_BYTES}`, hint: "config files should be small; remove generated content" } };
    }
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { ok: true, value: undefined, exists: false };
    return { ok: false, problem: { file: displayName, path: "", message: `cannot be read: ${(err as Error).message}` } };
  }
  const { parseDocument } = await import("yaml");
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    const where = pos ? ` at line ${pos.line}, column ${pos.col}` : "";
    return { ok: false, problem: { file: displayName, path: "", message: `is not valid YAML${where}: ${first.message.split(" at line ")[0]!.split("\n")[0]}`, hint: "fix the YAML syntax (indentation, quotes, duplicate keys)" } };
  }
  const value: unknown = doc.toJS({ maxAliasCount: 100 });
  return { ok: true, value: value ?? {}, exists: true };
}
