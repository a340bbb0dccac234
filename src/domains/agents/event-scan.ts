// A hook event too large to hold (over MAX_EVENT_BYTES, docs/agents.md), read as it streams: the
// top-level fields whose values are small (ids, names, times, a tool input of a few KB) are kept; large
// values (a file's content in a tool's input or response, a long prompt) are passed over, their keys
// noted. Memory stays at a few small values whatever the event's size. Pure.

/** The longest top-level string value kept (a session id, a path, an error message); longer ones are passed over. */
export const MAX_SCALAR_BYTES = 64 * 1024;
/** The largest top-level object or array kept (a tool input naming a file); larger ones are passed over. */
export const MAX_NESTED_BYTES = 1024 * 1024;
const MAX_KEY_BYTES = 1024;

export interface ScannedEvent {
  /** Bytes seen. */
  bytes: number;
  /** Top-level fields whose values were small enough to keep, decoded. */
  fields: Record<string, unknown>;
  /** Top-level keys whose values were passed over (over MAX_SCALAR_BYTES or MAX_NESTED_BYTES), in order. */
  unread: string[];
  /** Why the text is not one JSON object, or null. */
  problem: string | null;
  /** The top-level object was closed. */
  complete: boolean;
}

type State = "start" | "key_or_end" | "key" | "colon" | "value" | "string" | "literal" | "nested" | "nested_string" | "comma_or_end" | "done" | "failed";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

export class EventScanner {
  private state: State = "start";
  private bytes = 0;
  private readonly fields: Record<string, unknown> = {};
  private readonly unread: string[] = [];
  private problem: string | null = null;
  private key = "";
  /** The raw bytes of the string or literal being kept; null once it is too long to keep. */
  private capture: Buffer[] | null = null;
  private captured = 0;
  private limit = 0;
  /** The last chunk ended inside a string with an odd run of backslashes. */
  private escaped = false;
  private depth = 0;

  push(chunk: Uint8Array): void {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.bytes += buf.length;
    let i = 0;
    while (i < buf.length && this.state !== "failed") {
      if (this.state === "key" || this.state === "string" || this.state === "nested_string") i = this.inString(buf, i);
      else if (this.state === "nested") i = this.inNested(buf, i);
      else if (this.state === "literal") i = this.inLiteral(buf, i);
      else {
        this.structural(buf[i]!);
        i += 1;
      }
    }
  }

  result(): ScannedEvent {
    const complete = this.state === "done";
    const problem = this.problem ?? (complete ? null : this.bytes === 0 ? "is empty" : "ends before its top-level object is closed");
    return { bytes: this.bytes, fields: { ...this.fields }, unread: [...this.unread], problem, complete };
  }

  private fail(why: string): void {
    this.problem ??= why;
    this.state = "failed";
  }

  /** One byte between tokens of the top-level object. */
  private structural(c: number): void {
    if (isSpace(c)) return;
    switch (this.state) {
      case "start":
        return c === 0x7b ? void (this.state = "key_or_end") : this.fail("is not a JSON object");
      case "key_or_end":
        if (c === 0x7d) return void (this.state = "done");
        if (c !== QUOTE) return this.fail("is not valid JSON (a key was expected)");
        this.startCapture(MAX_KEY_BYTES);
        return void (this.state = "key");
      case "colon":
        return c === 0x3a ? void (this.state = "value") : this.fail("is not valid JSON (':' was expected)");
      case "value":
        if (c === QUOTE) {
          this.startCapture(MAX_SCALAR_BYTES);
          return void (this.state = "string");
        }
        if (c === 0x7b || c === 0x5b) {
          this.startCapture(MAX_NESTED_BYTES);
          this.keep(Buffer.of(c));
          this.depth = 1;
          return void (this.state = "nested");
        }
        this.startCapture(64);
        this.keep(Buffer.of(c));
        return void (this.state = "literal");
      case "comma_or_end":
        if (c === 0x2c) return void (this.state = "key_or_end");
        if (c === 0x7d) return void (this.state = "done");
        return this.fail("is not valid JSON (',' or '}' was expected)");
      case "done":
        return this.fail("is not valid JSON (text after the object)");
      default:
        return;
    }
  }

  /**
   * Inside a string: up to its closing quote, kept when it is a key or a top-level value. Only quotes are
   * searched for (natively: a megabyte of text costs a few searches, not a million steps); a quote after
   * an odd run of backslashes is part of the text.
   */
  private inString(buf: Buffer, from: number): number {
    // The chunk before ended inside an escape: its first byte is the escaped character.
    const floor = this.escaped ? from + 1 : from;
    this.escaped = false;
    for (let search = floor; ; ) {
      const quote = buf.indexOf(QUOTE, search);
      if (quote === -1) {
        this.keep(buf.subarray(from));
        this.escaped = backslashesBefore(buf, buf.length, floor) % 2 === 1;
        return buf.length;
      }
      if (backslashesBefore(buf, quote, floor) % 2 === 1) {
        search = quote + 1;
        continue;
      }
      this.keep(buf.subarray(from, quote + (this.state === "nested_string" ? 1 : 0)));
      this.endString();
      return quote + 1;
    }
  }

  private endString(): void {
    if (this.state === "nested_string") return void (this.state = "nested");
    const raw = this.taken();
    if (this.state === "key") {
      this.key = raw === null ? "" : (decode(`"${raw}"`) as string | undefined) ?? "";
      return void (this.state = "colon");
    }
    const value = raw === null ? undefined : decode(`"${raw}"`);
    if (typeof value === "string") this.fields[this.key] = value;
    else this.unread.push(this.key);
    this.state = "comma_or_end";
  }

  /** Inside an object or array value, strings included, until its closing bracket: kept while it is small. */
  private inNested(buf: Buffer, from: number): number {
    for (let i = from; i < buf.length; i++) {
      const c = buf[i]!;
      if (c === QUOTE) {
        this.keep(buf.subarray(from, i + 1));
        this.state = "nested_string";
        return i + 1;
      }
      if (c === 0x7b || c === 0x5b) this.depth += 1;
      else if (c === 0x7d || c === 0x5d) {
        this.depth -= 1;
        if (this.depth === 0) {
          this.keep(buf.subarray(from, i + 1));
          const raw = this.taken();
          const value = raw === null ? undefined : decode(raw);
          if (value === undefined) this.unread.push(this.key);
          else this.fields[this.key] = value;
          this.state = "comma_or_end";
          return i + 1;
        }
      }
    }
    this.keep(buf.subarray(from));
    return buf.length;
  }

  /** A number, true, false or null: up to the next delimiter. */
  private inLiteral(buf: Buffer, from: number): number {
    let i = from;
    while (i < buf.length && !isSpace(buf[i]!) && buf[i] !== 0x2c && buf[i] !== 0x7d) i++;
    this.keep(buf.subarray(from, i));
    if (i === buf.length) return i;
    const raw = this.taken();
    const value = raw === null ? undefined : decode(raw);
    if (value === undefined || (value !== null && typeof value === "object")) this.fail("is not valid JSON (a value was expected)");
    else {
      this.fields[this.key] = value;
      this.state = "comma_or_end";
    }
    return i;
  }

  private startCapture(limit: number): void {
    this.capture = [];
    this.captured = 0;
    this.limit = limit;
  }

  private keep(part: Buffer): void {
    if (this.capture === null || part.length === 0) return;
    this.captured += part.length;
    if (this.captured > this.limit) this.capture = null;
    else this.capture.push(Buffer.from(part)); // a copy: the chunk's memory is reused by the reader
  }

  /** What was kept, as text, or null when it was too long. */
  private taken(): string | null {
    const parts = this.capture;
    this.capture = null;
    return parts === null ? null : Buffer.concat(parts).toString("utf8");
  }
}

/** How many backslashes stand right before `at` (not looking before `floor`). */
function backslashesBefore(buf: Buffer, at: number, floor: number): number {
  let n = 0;
  while (at - n - 1 >= floor && buf[at - n - 1] === BACKSLASH) n++;
  return n;
}

function decode(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}
