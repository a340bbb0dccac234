import { describe, expect, it } from "vitest";
import { parseFastValidate } from "../../../src/adapters/cli/checkpoint/fast-path.js";

describe("the commander-free `checkpoint validate` route", () => {
  it.each([
    [["validate"], {}],
    [["validate", "--json", "--strict"], { json: true, strict: true }],
    [["--dir", "x/.checkpoints", "validate"], { dir: "x/.checkpoints" }],
    [["validate", "--dir=x", "--root=/r"], { dir: "x", root: "/r" }],
    [["--json", "--dir", "d", "validate", "--strict"], { json: true, dir: "d", strict: true }],
  ])("takes %j", (argv, opts) => {
    expect(parseFastValidate(argv)).toEqual({ opts });
  });

  it.each([
    [[]],
    [["status"]],
    [["validate", "--help"]],
    [["validate", "-h"]],
    [["validate", "--strct"]],
    [["validate", "extra"]],
    [["validate", "validate"]],
    [["validate", "--dir"]],
    [["validate", "--dir", "--json"]],
    [["validate", "--dir="]],
    [["--version"]],
    // validate's own flag before the subcommand: commander calls it an unknown option of the program
    [["--strict", "validate"]],
    [["--strict", "validate", "--strict"]],
    [["--root", "/r", "--strict", "validate"]],
    [["validate", "--", "--strict"]],
  ])("leaves %j to the full program", (argv) => {
    expect(parseFastValidate(argv)).toBeNull();
  });
});
