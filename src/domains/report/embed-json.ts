// JSON that can sit inside an HTML <script type="application/json"> element: no `<` survives (so no
// `</script>` or `<!--` from a tool name or a title can end the element), nor U+2028/U+2029. The text
// still parses to the same value. Pure.

const ESCAPES: Record<string, string> = { "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029" };

export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => ESCAPES[c]!);
}
