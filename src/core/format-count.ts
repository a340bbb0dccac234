// A count with thousands separators ("12,345"), as `toLocaleString("en-US")` writes it. Pure.
// Computed: a process's first toLocaleString loads ICU's number formatting (13–17 ms, docs/performance.md).

export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
  const digits = String(Math.abs(n));
  let out = "";
  for (let end = digits.length; end > 0; end -= 3) out = digits.slice(Math.max(0, end - 3), end) + (out === "" ? "" : `,${out}`);
  return n < 0 || Object.is(n, -0) ? `-${out}` : out;
}
