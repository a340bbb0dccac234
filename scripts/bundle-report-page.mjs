// Bundles the report page (src/domains/report/page/: TypeScript for the browser, sharing the report's
// pure modules) into one script and one stylesheet that `aop report` inlines into its HTML file.
// esbuild writes non-ASCII characters as escapes, so the script holds no U+2028/2029 or odd bytes.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pageDir = path.join(root, "src", "domains", "report", "page");
export async function bundleReportPage(outDir = path.join(root, "dist", "domains", "report", "assets")) {
  const common = { bundle: true, minify: true, legalComments: "none", logLevel: "warning", charset: "ascii" };
  await build({ ...common, entryPoints: [path.join(pageDir, "main.ts")], outfile: path.join(outDir, "page.js"), format: "iife", platform: "browser", target: "chrome100" });
  await build({ ...common, entryPoints: [path.join(pageDir, "report.css")], outfile: path.join(outDir, "page.css"), target: "chrome100" });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleReportPage();
