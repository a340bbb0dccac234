// The package version, read from package.json.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export function readPackageVersion(): string {
  // The package's root holds dist/; a route's bundle sits at another depth under it than this module.
  const here = fileURLToPath(import.meta.url);
  const dist = here.lastIndexOf(`${path.sep}dist${path.sep}`);
  const file = dist === -1 ? fileURLToPath(new URL("../../../../package.json", import.meta.url)) : path.join(here.slice(0, dist), "package.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
}
