// A baseline for commands that read many workspace files: reads every file of a list recorded by
// read-recorder.mjs, each whole, with plain fs calls (node bench/read-list.mjs <recorded.json>).
import fs from "node:fs";

const { files } = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
let bytes = 0;
for (const file of Object.keys(files)) {
  try {
    bytes += fs.readFileSync(file).length;
  } catch (err) {
    if (err.code !== "ENOENT") throw err; // a file the command itself removed (a lock, a temp file)
  }
}
if (process.argv[3] === "--print") process.stdout.write(`${Object.keys(files).length} files, ${bytes} bytes\n`);
