import { describe, expect, it } from "vitest";
import { ticketRefs, ticketsDoneInLog } from "../../../src/domains/checkpoints/ticket-refs.js";

describe("ticketRefs", () => {
  it.each([
    ["Fix the login bug (#123)", ["#123"]],
    ["Review PR #48 and ABC-12, then ABC-12 again", ["#48", "ABC-12"]],
    ["Ship SHOP-31 after SHOP-7", ["SHOP-31", "SHOP-7"]],
    ["Switch hashes to SHA-256 and files to UTF-8 (ISO-8601 dates)", []],
    ["See shop/shop-api#48 and color #fff", []],
    ["Nothing here", []],
  ])("%s → %j", (text, expected) => {
    expect(ticketRefs(text)).toEqual(expected);
  });
});

describe("ticketsDoneInLog", () => {
  it("finds tickets closed, fixed, resolved or merged, and squash-merge subjects", () => {
    const log = ["Fix the refund rounding, fixes #12", "", "SHOP-7 done", "Merge pull request #40 from dana/payments", "Add the orders endpoints (#41)", "Start SHOP-99 (work in progress)", "Mention #77 in passing"].join("\n");
    expect([...ticketsDoneInLog(log)].sort()).toEqual(["#12", "#40", "#41", "SHOP-7"]);
  });
});
