// Changes on dotted paths, for `checkpoint update <skill> --k=v --k+=v --k:json=<json>` and the
// `assignments` of the checkpoint.update tool: parsing them and applying them. Pure.
// Paths look like `context_primer.key_decisions`, `progress_table[2].status` or `progress_table.2.status`.
import { AopError } from "../../core/errors.js";
import { defineOwn, FORBIDDEN_KEYS, forbiddenKeyMessage, forbiddenKeyPath, isPlainObject } from "../../core/merge.js";

export type PathSegment = string | number;

export interface Assignment {
  /** The flag as typed (or where a tool argument sits), for messages. */
  flag: string;
  path: PathSegment[];
  /** "set" replaces (a JSON null removes), "append" pushes onto an array (created when missing). */
  op: "set" | "append";
  value: unknown;
}

const FLAG = /^--([^=]+?)(:json)?(\+)?=([\s\S]*)$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Stamped by update itself. */
const STAMPED = new Set(["updated_at"]);

function usage(message: string): AopError {
  return new AopError("usage_error", message, { hint: "write --path=text, --path+=text (append) or --path:json=<json>, e.g. --context_primer.key_decisions+='Use Postgres'" });
}

/** One assignment as the checkpoint.update tool takes it. */
export interface ToolAssignment {
  path: string;
  op: "set" | "append";
  value: unknown;
}

export function parsePath(text: string, flag = text, fail: (message: string) => AopError = usage): PathSegment[] {
  const segments: PathSegment[] = [];
  for (const part of text.split(".")) {
    const match = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!match) throw fail(`${flag}: '${part}' is not a valid path segment`);
    const [, name, indexes] = match;
    if (name !== "") {
      if (/^\d+$/.test(name!)) segments.push(Number(name));
      else if (FORBIDDEN_KEYS.has(name!)) throw fail(`${flag}: ${forbiddenKeyMessage(formatPath([...segments, name!]))}`);
      else if (NAME.test(name!)) segments.push(name!);
      else throw fail(`${flag}: '${name}' is not a valid key (letters, digits, _ and -)`);
    } else if (indexes === "" || segments.length === 0) {
      throw fail(`${flag}: empty path segment`);
    }
    for (const index of indexes!.matchAll(/\[(\d+)\]/g)) segments.push(Number(index[1]));
  }
  if (typeof segments[0] !== "string") throw fail(`${flag}: a path starts with a field name`);
  return segments;
}

export function parseAssignment(flag: string): Assignment {
  const match = FLAG.exec(flag);
  if (!match) throw usage(`'${flag}' is not an assignment`);
  const [, rawPath, json, plus, rawValue] = match;
  const path = parsePath(rawPath!, flag);
  if (path.length === 1 && STAMPED.has(path[0] as string)) throw usage(`${flag}: updated_at is stamped by update itself`);
  let value: unknown = rawValue;
  if (json) {
    try {
      value = JSON.parse(rawValue!);
    } catch (err) {
      throw usage(`${flag}: the value is not valid JSON (${(err as Error).message})`);
    }
    const forbidden = forbiddenKeyPath(value, "value");
    if (forbidden !== null) throw usage(`${flag}: ${forbiddenKeyMessage(forbidden)}`);
  }
  return { flag, path, op: plus ? "append" : "set", value };
}

export function parseAssignments(flags: readonly string[]): Assignment[] {
  return flags.map(parseAssignment);
}

/** A parsed flag as the tool's argument (the path written out canonically). */
export function toToolAssignment(a: Assignment): ToolAssignment {
  return { path: formatPath(a.path), op: a.op, value: a.value };
}

/** The tool's `assignments[i]`, checked as strictly as a flag (invalid_argument instead of a usage error). */
export function fromToolAssignment(arg: ToolAssignment, index: number): Assignment {
  const flag = `assignments[${index}] (${arg.path})`;
  const fail = (message: string) => new AopError("invalid_argument", message);
  const path = parsePath(arg.path, flag, fail);
  if (path.length === 1 && STAMPED.has(path[0] as string)) throw fail(`${flag}: updated_at is stamped by update itself`);
  const forbidden = forbiddenKeyPath(arg.value, `assignments[${index}].value`);
  if (forbidden !== null) throw fail(forbiddenKeyMessage(forbidden));
  return { flag, path, op: arg.op, value: arg.value };
}

function formatPath(path: readonly PathSegment[]): string {
  return path.map((s, i) => (typeof s === "number" ? `[${s}]` : i === 0 ? s : `.${s}`)).join("");
}

type Container = Record<string, unknown> | unknown[];

function invalid(a: Assignment, message: string): AopError {
  return new AopError("invalid_argument", `${a.flag}: ${message}`);
}

/** Walks to the parent of the last segment, creating objects on the way. */
function parentOf(root: Record<string, unknown>, a: Assignment): Container {
  let node: Container = root;
  for (let i = 0; i < a.path.length - 1; i++) {
    const seg = a.path[i]!;
    const next = a.path[i + 1]!;
    const here = formatPath(a.path.slice(0, i + 1));
    let child: unknown;
    if (typeof seg === "number") {
      if (!Array.isArray(node)) throw invalid(a, `${formatPath(a.path.slice(0, i))} is not an array`);
      child = node[seg];
      if (child === undefined) throw invalid(a, `${here} does not exist (the array has ${node.length} items)`);
    } else {
      if (Array.isArray(node)) throw invalid(a, `${formatPath(a.path.slice(0, i))} is an array: index it with [n]`);
      child = Object.hasOwn(node, seg) ? node[seg] : undefined;
      if (child === undefined) {
        if (typeof next === "number") throw invalid(a, `${here} does not exist: create the array first with ${here}:json=[...]`);
        child = {};
        defineOwn(node, seg, child);
      }
    }
    if (!isPlainObject(child) && !Array.isArray(child)) throw invalid(a, `${here} is ${child === null ? "null" : typeof child}, not an object or array`);
    node = child as Container;
  }
  return node;
}

function applyOne(root: Record<string, unknown>, a: Assignment): void {
  const parent = parentOf(root, a);
  const last = a.path[a.path.length - 1]!;
  const target = formatPath(a.path);
  if (typeof last === "number" && !Array.isArray(parent)) throw invalid(a, `${formatPath(a.path.slice(0, -1))} is not an array`);
  if (typeof last === "string" && Array.isArray(parent)) throw invalid(a, `${formatPath(a.path.slice(0, -1))} is an array: index it with [n]`);
  const current = Array.isArray(parent) ? parent[last as number] : Object.hasOwn(parent, last) ? (parent as Record<string, unknown>)[last as string] : undefined;
  if (a.op === "append") {
    if (current === undefined) setAt(parent, last, [a.value], a);
    else if (Array.isArray(current)) current.push(a.value);
    else throw invalid(a, `${target} is not an array, so += cannot append to it`);
    return;
  }
  if (a.value === null) {
    if (Array.isArray(parent)) {
      if (current === undefined) throw invalid(a, `${target} does not exist`);
      parent.splice(last as number, 1);
    } else delete parent[last as string];
    return;
  }
  setAt(parent, last, a.value, a);
}

function setAt(parent: Container, key: PathSegment, value: unknown, a: Assignment): void {
  if (Array.isArray(parent)) {
    const index = key as number;
    if (index > parent.length) throw invalid(a, `index ${index} is past the end (the array has ${parent.length} items)`);
    parent[index] = value;
  } else defineOwn(parent, key as string, value);
}

/** A new document with every assignment applied in order (the input is not modified). */
export function applyAssignments(document: Record<string, unknown>, assignments: readonly Assignment[]): Record<string, unknown> {
  const copy = structuredClone(document);
  for (const a of assignments) applyOne(copy, a);
  return copy;
}
