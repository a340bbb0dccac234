import { describe, expect, it } from "vitest";
import { changeIdWords, documentTitle, objectiveMatchesTask, significantWords, uncheckedItems } from "../../../src/domains/continuity/task-matching.js";

describe("uncheckedItems", () => {
  it("takes - * + and numbered [ ] items at any indentation, not checked ones or ones in code", () => {
    const md = "- [ ] one\n  * [ ] two\n+ [ ] three\n1. [ ] four\n- [x] done\n- [X] done too\n```\n- [ ] code\n```\n-[ ] no space\n";
    expect(uncheckedItems(md)).toEqual(["one", "two", "three", "four"]);
  });
});

describe("documentTitle", () => {
  it("is the first heading, without a Change:/Proposal: prefix", () => {
    expect(documentTitle("intro\n# Change: Add auth\n## Why")).toBe("Add auth");
    expect(documentTitle("## Tasks\n- [ ] x")).toBe("Tasks");
    expect(documentTitle("no heading")).toBeUndefined();
  });
});

describe("changeIdWords", () => {
  it("turns a change id into words", () => expect(changeIdWords("add-user_auth")).toBe("add user auth"));
});

describe("significantWords", () => {
  it("drops stop words and short words, folds plurals, splits CJK into character pairs", () => {
    expect([...significantWords("Build the user authentication modules for v2")]).toEqual(["user", "authentication", "module", "v2"]);
    expect([...significantWords("实现登录")]).toEqual(["实现", "现登", "登录"]);
  });

  it("keeps the words when all are stop words", () => {
    expect([...significantWords("fix it")]).toEqual(["fix"]);
  });
});

describe("objectiveMatchesTask", () => {
  it.each([
    ["Build the user authentication module", "User authentication", true],
    ["Build the user authentication module", "auth", false],
    ["Ship auth", "auth", true],
    ["Build the user authentication module", "Implement POST /auth/refresh endpoint", false],
    ["Build the user authentication module", "Update user docs", false],
    ["Migrate billing to Postgres 16", "billing postgres migration", true],
    ["实现登录功能", "登录功能", true],
    ["", "anything", false],
  ])("%j vs %j → %s", (objective, task, expected) => expect(objectiveMatchesTask(objective, task)).toBe(expected));
});
