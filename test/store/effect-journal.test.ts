import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { effectState, fileStamp, noteWrite, withEffectSink, type EffectNote } from "../../src/store/effect-journal.js";
import { appendJsonLine } from "../../src/store/jsonl.js";
import { createFileAtomic, moveFile, writeFileAtomic } from "../../src/store/atomic-write.js";
import { sha256Of } from "../../src/core/hash.js";
import { tempDir } from "../helpers/tmp.js";

/** The notes the store's writers make while `fn` runs inside a sink. */
async function notesOf(fn: () => void | Promise<void>): Promise<EffectNote[]> {
  const notes: EffectNote[] = [];
  await withEffectSink({ note: (e) => void notes.push(e) }, async () => fn());
  return notes;
}

describe("effect notes", () => {
  it("every store writer notes its effect before making it, with hashes of before and after", async () => {
    const dir = tempDir();
    const file = path.join(dir, "state.json");
    fs.writeFileSync(file, "old");
    const notes = await notesOf(() => {
      writeFileAtomic(file, "new");
      createFileAtomic(path.join(dir, "gate.json"), "evidence");
      appendJsonLine(path.join(dir, "chain.jsonl"), { a: 1 });
      moveFile(path.join(dir, "gate.json"), path.join(dir, "moved.json"));
    });
    expect(notes).toEqual([
      { kind: "write", path: file, before: sha256Of("old"), after: sha256Of("new") },
      { kind: "create", path: path.join(dir, "gate.json"), after: sha256Of("evidence") },
      { kind: "append", path: path.join(dir, "chain.jsonl"), offset: 0, bytes: 8, after: sha256Of('{"a":1}\n') },
      { kind: "move", from: path.join(dir, "gate.json"), to: path.join(dir, "moved.json"), hash: sha256Of("evidence") },
    ]);
  });

  it("notes only the writes of the call inside the sink, not those of a concurrent call outside it", async () => {
    const dir = tempDir();
    const tick = () => new Promise((r) => setTimeout(r, 5));
    const outside = (async () => {
      for (let i = 0; i < 3; i++) {
        await tick();
        writeFileAtomic(path.join(dir, `out-${i}.json`), "y");
      }
    })();
    const notes = await notesOf(async () => {
      for (let i = 0; i < 3; i++) {
        await tick();
        writeFileAtomic(path.join(dir, `in-${i}.json`), "x");
      }
    });
    await outside;
    noteWrite(path.join(dir, "after.json"), "z"); // no sink any more: a no-op
    expect(notes.map((n) => path.basename((n as { path: string }).path))).toEqual(["in-0.json", "in-1.json", "in-2.json"]);
  });
});

describe("effectState: did a noted effect reach the disk?", () => {
  const dir = tempDir();
  const at = (name: string, contents?: string) => {
    const file = path.join(dir, name);
    fs.rmSync(file, { force: true });
    if (contents !== undefined) fs.writeFileSync(file, contents);
    return file;
  };
  it.each([
    ["write, file still old", () => ({ kind: "write", path: at("w1", "old"), before: sha256Of("old"), after: sha256Of("new") }), "not_applied"],
    ["write, file new", () => ({ kind: "write", path: at("w2", "new"), before: sha256Of("old"), after: sha256Of("new") }), "applied"],
    ["write, file changed again since", () => ({ kind: "write", path: at("w3", "other"), before: sha256Of("old"), after: sha256Of("new") }), "changed_since"],
    ["write of a file that did not exist, still absent", () => ({ kind: "write", path: at("w4"), before: null, after: sha256Of("new") }), "not_applied"],
    ["create, absent", () => ({ kind: "create", path: at("c1"), after: sha256Of("e") }), "not_applied"],
    ["create, present", () => ({ kind: "create", path: at("c2", "e"), after: sha256Of("e") }), "applied"],
    ["append, line at its offset", () => ({ kind: "append", path: at("a1", 'x\n{"a":1}\n'), offset: 2, bytes: 8, after: sha256Of('{"a":1}\n') }), "applied"],
    ["append, torn fragment", () => ({ kind: "append", path: at("a2", 'x\n{"a"'), offset: 2, bytes: 8, after: sha256Of('{"a":1}\n') }), "not_applied"],
    ["append, another line there (the torn one was cut off)", () => ({ kind: "append", path: at("a3", 'x\n{"b":2}\n'), offset: 2, bytes: 8, after: sha256Of('{"a":1}\n') }), "not_applied"],
    ["move, still at its source", () => ({ kind: "move", from: at("m1", "c"), to: at("m1-to"), hash: sha256Of("c") }), "not_applied"],
    ["move, at its target", () => ({ kind: "move", from: at("m2"), to: at("m2-to", "c"), hash: sha256Of("c") }), "applied"],
  ] as const)("%s → %s", (_name, note, expected) => {
    expect(effectState(note() as EffectNote)).toBe(expected);
  });

  it("stamps what is not a regular file without reading it", () => {
    fs.mkdirSync(path.join(dir, "d"), { recursive: true });
    expect(fileStamp(path.join(dir, "d"))).toBe("special:directory");
    expect(fileStamp(path.join(dir, "missing"))).toBeNull();
  });
});
