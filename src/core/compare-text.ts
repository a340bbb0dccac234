// One order for text: UTF-16 code units, the order canonical JSON sorts keys in. Pure.
// Not localeCompare: its first call loads ICU's collator (7–10 ms of a short process, docs/performance.md),
// and its order moves with the machine's locale, where records and listings must not.

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
