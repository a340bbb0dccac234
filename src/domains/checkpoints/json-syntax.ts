// Finds where a JSON text first breaks and says so by line and column. Pure.
// JSON.parse messages differ between Node versions and often omit the position; this scanner is the
// one place that explains syntax errors, and it only runs after JSON.parse has failed.

export interface JsonSyntaxError {
  /** Offset in UTF-16 code units. */
  offset: number;
  /** 1-based. */
  line: number;
  /** 1-based, in characters. */
  column: number;
  message: string;
}

type Expect = "value" | "value-or-close" | "key" | "key-or-close" | "colon" | "comma-or-close" | "end";

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = ["true", "false", "null"];

function describeChar(ch: string): string {
  const code = ch.charCodeAt(0);
  if (ch === "\uFFFD") return "a byte sequence that is not UTF-8 text (binary data?)";
  if (code === 0) return "a NUL byte (binary data?)";
  if (code < 0x20 || code === 0x7f) return `control character 0x${code.toString(16).padStart(2, "0")}`;
  return `'${ch}'`;
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function skipWhitespace(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    i++;
  }
  return i;
}

/** End offset of the string starting at `start` (a `"`), or an error. */
function scanString(text: string, start: number): number | { offset: number; message: string } {
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === '"') return i + 1;
    if (ch === "\\") {
      const next = text[i + 1];
      if (next === undefined) break;
      if (next === "u") {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return { offset: i, message: "invalid \\u escape: expected four hex digits" };
        i += 6;
        continue;
      }
      if (!'"\\/bfnrt'.includes(next)) return { offset: i, message: `invalid escape '\\${next}' in a string` };
      i += 2;
      continue;
    }
    if (ch.charCodeAt(0) < 0x20) {
      return { offset: i, message: ch === "\n" ? "unterminated string (a line break inside quotes; write \\n)" : `${describeChar(ch)} inside a string` };
    }
    i++;
  }
  return { offset: start, message: "unterminated string: no closing quote" };
}

/** The first syntax error of `text`, or null when it is valid JSON. */
export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  const stack: string[] = [];
  let expect: Expect = "value";
  let afterComma = false;
  let i = 0;
  const fail = (offset: number, message: string): JsonSyntaxError => ({ offset, ...lineAndColumn(text, offset), message });
  const afterValue = (): Expect => (stack.length === 0 ? "end" : "comma-or-close");
  for (;;) {
    i = skipWhitespace(text, i);
    if (i >= text.length) {
      if (expect === "end") return null;
      if (stack.length === 0 && i === 0) return fail(0, "the file is empty");
      return fail(i, stack.length > 0 ? `unexpected end of file: '${stack[stack.length - 1]}' is never closed` : "unexpected end of file");
    }
    const ch = text[i]!;
    switch (expect) {
      case "end":
        return fail(i, `unexpected ${describeChar(ch)} after the end of the JSON value`);
      case "colon":
        if (ch !== ":") return fail(i, `expected ':' after the property name, found ${describeChar(ch)}`);
        i++;
        expect = "value";
        continue;
      case "comma-or-close": {
        const closer = stack[stack.length - 1] === "{" ? "}" : "]";
        if (ch === ",") {
          i++;
          expect = closer === "}" ? "key" : "value";
          afterComma = true;
          continue;
        }
        if (ch === closer) {
          stack.pop();
          i++;
          expect = afterValue();
          continue;
        }
        return fail(i, `expected ',' or '${closer}', found ${describeChar(ch)} (a missing comma?)`);
      }
      case "key":
      case "key-or-close": {
        if (ch === "}") {
          if (expect === "key") return fail(i, "trailing comma before '}'");
          stack.pop();
          i++;
          expect = afterValue();
          continue;
        }
        if (ch !== '"') return fail(i, `expected a property name in double quotes, found ${describeChar(ch)}`);
        const end = scanString(text, i);
        if (typeof end !== "number") return fail(end.offset, end.message);
        i = end;
        expect = "colon";
        afterComma = false;
        continue;
      }
      case "value":
      case "value-or-close": {
        if (ch === "]" && (expect === "value-or-close" || afterComma)) {
          if (expect === "value") return fail(i, "trailing comma before ']'");
          stack.pop();
          i++;
          expect = afterValue();
          continue;
        }
        afterComma = false;
        if (ch === "{" || ch === "[") {
          stack.push(ch);
          i++;
          expect = ch === "{" ? "key-or-close" : "value-or-close";
          continue;
        }
        if (ch === '"') {
          const end = scanString(text, i);
          if (typeof end !== "number") return fail(end.offset, end.message);
          i = end;
          expect = afterValue();
          continue;
        }
        if (ch === "-" || (ch >= "0" && ch <= "9")) {
          NUMBER.lastIndex = i;
          const match = NUMBER.exec(text);
          if (!match || match[0] === "-") return fail(i, "invalid number");
          i += match[0].length;
          expect = afterValue();
          continue;
        }
        const literal = LITERALS.find((word) => text.startsWith(word, i));
        if (literal) {
          i += literal.length;
          expect = afterValue();
          continue;
        }
        if (ch === "'") return fail(i, "strings must use double quotes, found a single quote");
        return fail(i, `expected a value, found ${describeChar(ch)}`);
      }
    }
  }
}
