import { describe, expect, it } from "vitest";
import { axisTicks, barStart, formatDuration, MIN_BAR_PX, placeBar, windowOf } from "../../../src/domains/report/waterfall.js";

const at = (ts_ms: number, latency_ms: number) => ({ ts_ms, latency_ms });

describe("waterfall placement", () => {
  it("a bar starts at ts − latency and ends at ts", () => {
    expect(barStart(at(1000, 250))).toBe(750);
    expect(barStart(at(1000, -5))).toBe(1000);
  });

  it("the window spans the earliest start to the latest end; one instant gets 1 ms; none is null", () => {
    expect(windowOf([at(1000, 100), at(1500, 800), at(2000, 0)])).toEqual({ from_ms: 700, to_ms: 2000 });
    expect(windowOf([at(5, 0)])).toEqual({ from_ms: 5, to_ms: 6 });
    expect(windowOf([])).toBeNull();
    expect(windowOf([at(1000, 100), at(5000, 10)], [1])).toEqual({ from_ms: 4990, to_ms: 5000 });
  });

  it("places bars proportionally, widens tiny ones to MIN_BAR_PX inside the track, clips those outside", () => {
    const w = { from_ms: 0, to_ms: 1000 };
    expect(placeBar(at(500, 250), w, 1000)).toEqual({ x: 250, w: 250 });
    // A widened bar still ends where its call ended.
    expect(placeBar(at(500, 0.1), w, 1000)).toEqual({ x: 500 - MIN_BAR_PX, w: MIN_BAR_PX });
    expect(placeBar(at(0, 0), w, 1000)).toEqual({ x: 0, w: MIN_BAR_PX });
    expect(placeBar(at(1000, 0), w, 1000)).toEqual({ x: 1000 - MIN_BAR_PX, w: MIN_BAR_PX });
    expect(placeBar(at(1500, 800), w, 1000)).toEqual({ x: 700, w: 300 });
    expect(placeBar(at(3000, 100), w, 1000).w).toBe(0);
  });

  it("axis ticks are round steps labelled from the window's start", () => {
    const ticks = axisTicks({ from_ms: 0, to_ms: 60_000 }, 600, 6);
    expect(ticks.map((t) => t.label)).toEqual(["0", "10 s", "20 s", "30 s", "40 s", "50 s", "1 min"]);
    expect(ticks[1]!.x).toBe(100);
  });

  it.each([
    [0.42, "0.4 ms"], [3, "3 ms"], [12.6, "13 ms"], [1500, "1.5 s"], [12_340, "12.3 s"], [125_000, "2 min 5 s"], [3_600_000, "1 h"], [12_000_000, "3 h 20 min"], [187_200_000, "2 d 4 h"],
  ])("formatDuration(%s) = %s", (ms, text) => expect(formatDuration(ms)).toBe(text));
});
