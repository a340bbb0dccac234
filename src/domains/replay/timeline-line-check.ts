// An exact, allocation-free reading of one timeline line's bytes for the audit (timeline-audit.ts):
// whether `JSON.parse` of its UTF-8 text would succeed, and if so whether the value is an entry (an
// object whose last `sequence` member is a whole number ≥ 0 and whose last `tool_name` member is a
// string, the test of asEntry) and its sequence. The audit reads 100,000s of lines; parsing each into
// an object was most of its time and nearly all of its garbage (docs/performance.md).
//
// It validates the JSON grammar itself (RFC 8259, as V8's JSON.parse accepts it: no depth limit, lone
// surrogate escapes allowed, no BOM, whitespace only space, tab, CR and LF). Any byte ≥ 0x80 inside a
// string is accepted, since its UTF-8 decoding (with U+FFFD for malformed bytes, which never swallow
// an ASCII byte) yields only characters JSON allows there. Where it is not sure — a top-level key with
// an escape, which could spell `sequence` — it answers UNSURE and the caller parses the line.

/** The line is not JSON (JSON.parse would throw). */
export const NOT_JSON = -1;
/** The line is JSON but not a timeline entry. */
export const NOT_ENTRY = -2;
/** Decide with JSON.parse. */
export const UNSURE = -3;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function skipWhitespace(b: Uint8Array, i: number, end: number): number {
  while (i < end && isWhitespace(b[i]!)) i++;
  return i;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

/** Bytes that end a string's plain run: the quote, the backslash and the control characters. */
const STRING_STOP = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) STRING_STOP[c] = 1;
STRING_STOP[QUOTE] = 1;
STRING_STOP[BACKSLASH] = 1;

/** Past the string starting at its quote `i`, or -1; `escaped[0]` tells whether it held a backslash. */
function skipString(b: Uint8Array, i: number, end: number): number {
  escaped[0] = 0;
  for (i++; i < end; i++) {
    while (i < end && STRING_STOP[b[i]!] === 0) i++;
    if (i >= end) return -1;
    const c = b[i]!;
    if (c === QUOTE) return i + 1;
    if (c < 0x20) return -1;
    if (c === BACKSLASH) {
      escaped[0] = 1;
      const e = b[++i];
      if (e === 0x75) {
        if (i + 4 >= end || !isHex(b[i + 1]!) || !isHex(b[i + 2]!) || !isHex(b[i + 3]!) || !isHex(b[i + 4]!)) return -1;
        i += 4;
      } else if (e !== QUOTE && e !== BACKSLASH && e !== 0x2f && e !== 0x62 && e !== 0x66 && e !== 0x6e && e !== 0x72 && e !== 0x74) return -1;
    }
  }
  return -1;
}

function skipDigits(b: Uint8Array, i: number, end: number): number {
  while (i < end && b[i]! >= 0x30 && b[i]! <= 0x39) i++;
  return i;
}

/** Past the number starting at `i`, or -1. */
function skipNumber(b: Uint8Array, i: number, end: number): number {
  if (b[i] === 0x2d) i++;
  if (i >= end) return -1;
  if (b[i] === 0x30) i++;
  else if (b[i]! >= 0x31 && b[i]! <= 0x39) i = skipDigits(b, i + 1, end);
  else return -1;
  if (i < end && b[i] === 0x2e) {
    const from = i + 1;
    i = skipDigits(b, from, end);
    if (i === from) return -1;
  }
  if (i < end && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < end && (b[i] === 0x2b || b[i] === 0x2d)) i++;
    const from = i;
    i = skipDigits(b, from, end);
    if (i === from) return -1;
  }
  return i;
}

function skipLiteral(b: Uint8Array, i: number, end: number, word: readonly number[]): number {
  if (i + word.length > end) return -1;
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word[k]) return -1;
  return i + word.length;
}

const TRUE = [0x74, 0x72, 0x75, 0x65];
const FALSE = [0x66, 0x61, 0x6c, 0x73, 0x65];
const NULL = [0x6e, 0x75, 0x6c, 0x6c];
const SEQUENCE = [...'"sequence"'].map((c) => c.charCodeAt(0));
const TOOL_NAME = [...'"tool_name"'].map((c) => c.charCodeAt(0));

function bytesEqual(b: Uint8Array, start: number, stop: number, word: readonly number[]): boolean {
  if (stop - start !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (b[start + k] !== word[k]) return false;
  return true;
}

const OBJECT = 1;
const ARRAY = 2;
// Scratch reused by every call (the audit is synchronous): the open containers, a string's escape flag.
const stack: number[] = [];
const escaped = new Uint8Array(1);

/**
 * What JSON.parse of the line `b[start, end)` would make of it: the entry's sequence (a number ≥ 0,
 * exactly the parsed value), or NOT_JSON, NOT_ENTRY or UNSURE.
 */
export function lineSequence(b: Uint8Array, start: number, end: number): number {
  stack.length = 0;
  let topIsObject = false;
  // The last top-level `sequence` and `tool_name` members: the value's range / whether it is a string.
  let seqStart = -1;
  let seqEnd = -1;
  let toolIsString = false;
  let member = 0; // which top-level member the value being read belongs to: 0 other, 1 sequence, 2 tool_name
  let i = skipWhitespace(b, start, end);
  if (i < end && b[i] === 0x7b) topIsObject = true;
  for (;;) {
    // A value starts at i (inside an object, after its key and colon).
    if (i >= end) return NOT_JSON;
    const c = b[i]!;
    const valueStart = i;
    let opened = false;
    if (c === 0x7b || c === 0x5b) {
      i = skipWhitespace(b, i + 1, end);
      if (i < end && b[i] === (c === 0x7b ? 0x7d : 0x5d)) i++;
      else {
        stack.push(c === 0x7b ? OBJECT : ARRAY);
        opened = true;
      }
    } else if (c === QUOTE) i = skipString(b, i, end);
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) i = skipNumber(b, i, end);
    else if (c === 0x74) i = skipLiteral(b, i, end, TRUE);
    else if (c === 0x66) i = skipLiteral(b, i, end, FALSE);
    else if (c === 0x6e) i = skipLiteral(b, i, end, NULL);
    else return NOT_JSON;
    if (i < 0) return NOT_JSON;
    if (opened) {
      if (stack.length === 1 && stack[0] === OBJECT) member = 0;
      if (stack[stack.length - 1] === ARRAY) continue;
    } else {
      // A scalar (or empty container) ended at i.
      if (stack.length === 1 && stack[0] === OBJECT) {
        if (member === 1) {
          seqStart = c === 0x2d || (c >= 0x30 && c <= 0x39) ? valueStart : -1;
          seqEnd = i;
        } else if (member === 2) toolIsString = c === QUOTE;
      }
      // Past the value: commas, closing brackets, until the next value or the end.
      let next = false;
      while (!next) {
        i = skipWhitespace(b, i, end);
        if (stack.length === 0) return i === end ? entryOf(b, topIsObject, seqStart, seqEnd, toolIsString) : NOT_JSON;
        if (i >= end) return NOT_JSON;
        const top = stack[stack.length - 1];
        const d = b[i]!;
        if (d === 0x2c) {
          i = skipWhitespace(b, i + 1, end);
          if (top === ARRAY) next = true;
          else break; // a key follows
        } else if ((top === OBJECT && d === 0x7d) || (top === ARRAY && d === 0x5d)) {
          stack.pop();
          i++;
          // A container that was a top-level member's value: not a number, not a string.
          if (stack.length === 1 && stack[0] === OBJECT) {
            if (member === 1) seqStart = -1;
            else if (member === 2) toolIsString = false;
          }
        } else return NOT_JSON;
      }
      if (next) continue;
    }
    // An object member's key, then its colon; the value follows.
    if (i >= end || b[i] !== QUOTE) return NOT_JSON;
    const keyStart = i;
    i = skipString(b, i, end);
    if (i < 0) return NOT_JSON;
    if (stack.length === 1) {
      if (escaped[0] === 1) return UNSURE; // could spell a member the entry test reads
      member = bytesEqual(b, keyStart, i, SEQUENCE) ? 1 : bytesEqual(b, keyStart, i, TOOL_NAME) ? 2 : 0;
    }
    i = skipWhitespace(b, i, end);
    if (i >= end || b[i] !== 0x3a) return NOT_JSON;
    i = skipWhitespace(b, i + 1, end);
  }
}

function entryOf(b: Uint8Array, topIsObject: boolean, seqStart: number, seqEnd: number, toolIsString: boolean): number {
  if (!topIsObject || seqStart < 0 || !toolIsString) return NOT_ENTRY;
  let text = "";
  for (let k = seqStart; k < seqEnd; k++) text += String.fromCharCode(b[k]!);
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 ? n : NOT_ENTRY;
}
