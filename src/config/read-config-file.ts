// Reads a YAML (or JSON) config file into a value, or a problem naming the file, line and column.
import { describeRefusal, readBytesBounded, refusalCode } from "../store/read-text-bounded.js";
import { READ_LIMITS } from "../store/read-limits.js";
import type { ConfigProblem } from "./policy-types.js";

export const MAX_CONFIG_BYTES = READ_LIMITS.config;
// Aliases may repeat a node this many times in all; an "alias bomb" (aliases of aliases) needs far more.
const MAX_ALIAS_COUNT = 100;

export type ReadResult = { ok: true; value: unknown; exists: true } | { ok: true; value: undefined; exists: false } | { ok: false; problem: ConfigProblem };

export async function readYamlFile(file: string, displayName: string): Promise<ReadResult> {
  const read = readBytesBounded(file, MAX_CONFIG_BYTES);
  if (read.status === "missing") return { ok: true, value: undefined, exists: false };
  if (read.status !== "ok") {
    const hint = read.status === "too_large" ? "config files should be small; remove generated content" : "replace it with a regular YAML file";
    return { ok: false, problem: { file: displayName, path: "", message: `${describeRefusal(read)} [${refusalCode(read)}]`, hint } };
  }
  return parseYamlText(read.bytes.toString("utf8"), displayName);
}

/** A config file's text (already read) into a value, or a problem naming the file, line and column. */
export async function parseYamlText(text: string, displayName: string): Promise<ReadResult> {
  const { parseDocument } = await import("yaml");
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    const where = pos ? ` at line ${pos.line}, column ${pos.col}` : "";
    return { ok: false, problem: { file: displayName, path: "", message: `is not valid YAML${where}: ${first.message.split(" at line ")[0]!.split("\n")[0]}`, hint: "fix the YAML syntax (indentation, quotes, duplicate keys)" } };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    // An alias naming no anchor throws ReferenceError; too many alias expansions throw their own error.
    const message = err instanceof Error ? err.message.split("\n")[0]! : String(err);
    return { ok: false, problem: { file: displayName, path: "", message: `is not usable YAML: ${message}`, hint: "remove the alias (*name) or define its anchor (&name); aliases may expand at most 100 nodes" } };
  }
  return { ok: true, value: value ?? {}, exists: true };
}
