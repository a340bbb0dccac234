// What an anchor does to refs/aop/anchors given what the ref holds (anchor-ref-plan.ts): the ref never
// goes back to an older note of a feature.
import { createPrivateKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { backoffMs, mktreeInput, noteTreeSize, parseTreeListing, planNote } from "../../../src/domains/attest/anchor-ref-plan.js";
import { signerFor } from "../../../src/domains/attest/ed25519-keys.js";
import { signNote } from "../../../src/domains/attest/signed-note.js";
import { formatCheckpoint } from "../../../src/domains/attest/tlog-checkpoint.js";
import { signingKeyFixture } from "../../helpers/signing-key.js";

const signer = signerFor(createPrivateKey(signingKeyFixture().privatePem));
const ORIGIN = "aop/ws/feat_a";
const note = (size: number) => signNote(formatCheckpoint({ origin: ORIGIN, size, root: Buffer.alloc(32, size) }), ORIGIN, signer);

describe("refs/aop/anchors plan", () => {
  it("noteTreeSize reads a signed checkpoint's size, and nothing else", () => {
    expect(noteTreeSize(note(12))).toBe(12);
    expect(noteTreeSize("hello\n")).toBeNull();
    expect(noteTreeSize(note(3).replace("\n3\n", "\n3e0\n"))).toBeNull();
    expect(noteTreeSize("")).toBeNull();
  });

  it.each([
    ["nothing held: write", null, 5, "write"],
    ["this very note: current", { object: "mine", note: null }, 5, "current"],
    ["an older note: write", { object: "b1", note: note(4) }, 5, "write"],
    ["a newer note (a concurrent anchor landed first): covered", { object: "b1", note: note(7) }, 5, "covered"],
    ["another note of the same size (another key): covered, the ref does not move sideways", { object: "b1", note: note(5) }, 5, "covered"],
    ["something that is no checkpoint: write", { object: "b1", note: "garbage\n" }, 5, "write"],
    ["a blob too big or not a blob (unread): write", { object: "t1", note: null }, 5, "write"],
  ] as const)("%s", (_name, held, size, expected) => {
    expect(planNote(held, { object: "mine", treeSize: size })).toBe(expected);
  });

  it("parses `git ls-tree -z -l` and gives mktree its entries back", () => {
    const listing = "100644 blob aaaa     123\tfeat_a.note\x00040000 tree bbbb       -\tdir with space\x00";
    const entries = parseTreeListing(listing);
    expect(entries).toEqual([
      { mode: "100644", type: "blob", object: "aaaa", size: 123, name: "feat_a.note" },
      { mode: "040000", type: "tree", object: "bbbb", size: null, name: "dir with space" },
    ]);
    expect(mktreeInput(entries)).toBe("100644 blob aaaa\tfeat_a.note\x00040000 tree bbbb\tdir with space\x00");
    expect(parseTreeListing("")).toEqual([]);
  });

  it("backs off more with each lost race, jittered, up to a bound", () => {
    expect(backoffMs(1, 0)).toBe(0);
    expect(backoffMs(1, 1)).toBe(10);
    expect(backoffMs(5, 0.5)).toBe(25);
    expect(backoffMs(39, 1)).toBe(100);
  });
});
