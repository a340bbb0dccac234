// npm run bench [-- suite...]: runs every suite (or the named ones) and prints figures beside baselines.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { allRows } from "./lib.mjs";

const suitesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "suites");
const wanted = process.argv.slice(2);
const suites = fs
  .readdirSync(suitesDir)
  .filter((f) => f.endsWith(".mjs"))
  .sort()
  .filter((f) => wanted.length === 0 || wanted.includes(f.replace(/^\d+-/, "").replace(/\.mjs$/, "")));

process.stdout.write(`node ${process.version} · ${new Date().toISOString()}\n`);
for (const file of suites) {
  const suite = await import(pathToFileURL(path.join(suitesDir, file)).href);
  await suite.run();
}
const misses = allRows().filter((r) => r.verdict.startsWith("MISS"));
process.stdout.write(`\n${allRows().length} figures, ${misses.length} target${misses.length === 1 ? "" : "s"} missed\n`);
