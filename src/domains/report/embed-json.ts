// JSON that can sit inside an HTML <script type="application/json"> element: no `<` survives (so no
// `</script>` or `<!--` from a tool name or a title can end the element), nor U+2028/U+2029. The text
// still parses to the same value. Pure.

export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}
