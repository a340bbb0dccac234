// The package version, read once from package.json.
import { createRequire } from "node:module";

export function readPackageVersion(): string {
  const require = createRequire(import.meta.url);
  return (require("../../../package.json") as { version: string }).version;
}
