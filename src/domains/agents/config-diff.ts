// The change `aop integrate` makes to a config file, as lines removed (-) and added (+) with a line of
// context around each change. Pure. Config files are small; past MAX_DIFF_CELLS the whole old text
// is shown removed and the new added, rather than spend quadratic time on a longest common subsequence.
const MAX_DIFF_CELLS = 4_000_000;
const CONTEXT = 1;

export function lineDiff(before: string, after: string): string {
  const a = before === "" ? [] : before.replace(/\n$/, "").split("\n");
  const b = after === "" ? [] : after.replace(/\n$/, "").split("\n");
  const ops = a.length * b.length > MAX_DIFF_CELLS ? [...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)] : lcsOps(a, b);
  // Keep the changed lines and CONTEXT unchanged lines either side; mark skipped runs with "…".
  const keep = ops.map((op, i) => op[0] !== " " || ops.slice(Math.max(0, i - CONTEXT), i + CONTEXT + 1).some((o) => o[0] !== " "));
  const out: string[] = [];
  for (let i = 0; i < ops.length; i++) {
    if (keep[i]) out.push(ops[i]!);
    else if (out[out.length - 1] !== " …") out.push(" …");
  }
  return out.length === 0 ? "" : out.join("\n") + "\n";
}

function lcsOps(a: string[], b: string[]): string[] {
  const n = a.length;
  const m = b.length;
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  const ops: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push(` ${a[i]}`);
      i++;
      j++;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) ops.push(`-${a[i++]}`);
    else ops.push(`+${b[j++]}`);
  }
  while (i < n) ops.push(`-${a[i++]}`);
  while (j < m) ops.push(`+${b[j++]}`);
  return ops;
}
