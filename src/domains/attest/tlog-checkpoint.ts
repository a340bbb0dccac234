// The body of a C2SP tlog checkpoint (c2sp.org/tlog-checkpoint): origin, tree size, base64 RFC 6962 root,
// each on its own line. Pure.

export interface Checkpoint {
  origin: string;
  size: number;
  root: Buffer;
}

const SIZE = /^(0|[1-9][0-9]*)$/;
const ROOT = /^[A-Za-z0-9+/]{43}=$/;

export function formatCheckpoint(checkpoint: Checkpoint): string {
  if (checkpoint.origin === "" || checkpoint.origin.includes("\n")) throw new TypeError("a checkpoint origin must be one non-empty line");
  if (checkpoint.root.length !== 32) throw new TypeError("a checkpoint root is 32 bytes");
  return `${checkpoint.origin}\n${checkpoint.size}\n${checkpoint.root.toString("base64")}\n`;
}

/** The checkpoint a note text holds, or why it holds none. Extension lines are allowed and ignored. */
export function parseCheckpoint(text: string): Checkpoint | string {
  if (!text.endsWith("\n")) return "the checkpoint does not end in a newline";
  const lines = text.slice(0, -1).split("\n");
  if (lines.length < 3) return "a checkpoint has at least three lines: origin, size, root";
  const [origin, size, root] = lines as [string, string, string];
  if (lines.some((l) => l === "")) return "a checkpoint has no empty lines";
  if (!SIZE.test(size) || !Number.isSafeInteger(Number(size))) return `the tree size '${size.slice(0, 40)}' is not a decimal number`;
  if (!ROOT.test(root)) return "the root is not the base64 of 32 bytes";
  return { origin, size: Number(size), root: Buffer.from(root, "base64") };
}
