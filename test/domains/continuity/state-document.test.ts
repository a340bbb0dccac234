import { describe, expect, it } from "vitest";
import { extractObjective, normalizeObjective, objectivesDiffer, quoteText } from "../../../src/domains/continuity/objective.js";
import { isEmptyOrNone, readStateDocument, REQUIRED_SECTIONS, sectionValue } from "../../../src/domains/continuity/state-document.js";

describe("readStateDocument", () => {
  it("finds the six sections and lists the missing ones in protocol order", () => {
    const doc = readStateDocument("## Objective\nx\n## Blockers\nNone\n");
    expect([...doc.sections.keys()]).toEqual(["Objective", "Blockers"]);
    expect(doc.missing).toEqual(REQUIRED_SECTIONS.filter((n) => n !== "Objective" && n !== "Blockers"));
  });

  it("the first of two same-named sections wins", () => {
    expect(readStateDocument("## Objective\nfirst\n## Objective\nsecond").sections.get("Objective")!.body).toBe("first");
  });
});

describe("isEmptyOrNone / sectionValue", () => {
  it.each(["", "None", "- none yet", "N/A", "(None)", "—", "[One sentence: …]", "<!-- nothing -->"])("%j states nothing", (body) => {
    expect(isEmptyOrNone(body)).toBe(true);
    expect(sectionValue(body)).toBe("");
  });

  it("joins the prose lines of a real value", () => {
    expect(sectionValue("- _Ship the parser_\n- then the **printer**")).toBe("Ship the parser then the **printer**");
  });
});

describe("objectives", () => {
  it("extractObjective is undefined for a missing, None or placeholder objective", () => {
    expect(extractObjective(readStateDocument("## Current Step\nx"))).toBeUndefined();
    expect(extractObjective(readStateDocument("## Objective\nNone"))).toBeUndefined();
    expect(extractObjective(readStateDocument("## Objective\n[One sentence: what]"))).toBeUndefined();
    expect(extractObjective(readStateDocument("## Objective\nShip it"))).toBe("Ship it");
  });

  it("normalises links, code, emphasis, case, spacing and final punctuation", () => {
    expect(normalizeObjective("Fix [the **auth**](https://x/1) `module`  now.")).toBe("fix the auth module now");
    expect(objectivesDiffer("Build the *auth* module.", "build the auth module")).toBe(false);
    expect(objectivesDiffer("Build the auth module", "Build the billing module")).toBe(true);
    expect(normalizeObjective("keep snake_case_names")).toBe("keep snake_case_names");
  });

  it("quoteText shortens long text", () => {
    expect(quoteText("a".repeat(100))).toBe(`"${"a".repeat(59)}…"`);
  });
});
