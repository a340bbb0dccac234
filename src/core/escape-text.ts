// Text from agents and receivers reaches terminals: control characters are shown escaped, never sent.

// C0 controls, DEL and C1 controls (ESC starts terminal escape sequences; CR and BS rewrite lines).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export function escapeControlChars(text: string): string {
  return text.replace(CONTROL, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\t") return "\\t";
    if (c === "\r") return "\\r";
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}
