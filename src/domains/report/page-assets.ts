// The page's script and stylesheet, bundled at build time (scripts/bundle-report-page.mjs) beside the
// compiled report domain, read once per process.
import fs from "node:fs";
import { AopError } from "../../core/errors.js";
import type { PageAssets } from "./html-page.js";

let cached: PageAssets | undefined;

export function loadPageAssets(): PageAssets {
  if (cached) return cached;
  const read = (name: string) => {
    try {
      return fs.readFileSync(new URL(`./assets/${name}`, import.meta.url), "utf8");
    } catch {
      throw new AopError("internal_error", `the report page asset ${name} is missing from this installation`, { hint: "rebuild with `npm run build`" });
    }
  };
  cached = { script: read("page.js"), css: read("page.css") };
  return cached;
}
