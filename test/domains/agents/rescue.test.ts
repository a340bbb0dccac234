// The hook's last resort: when its second is up before the event was spooled (stdin came in late on
// a loaded machine), the watchdog spools it synchronously, once.
import { describe, expect, it } from "vitest";
import { rescueUnspooled } from "../../../src/domains/agents/index.js";
import { spoolBacklog } from "../../../src/domains/replay/index.js";
import { WorkspaceLayout } from "../../../src/store/layout.js";
import { fixedClock } from "../../../src/core/clock.js";
import { claudePayload } from "../../helpers/claude-payloads.js";
import { tempWorkspace } from "../../helpers/tmp.js";

describe("rescueUnspooled", () => {
  it("spools a tool event that was not spooled yet, and only once", () => {
    const root = tempWorkspace();
    const payload = claudePayload("PostToolUse", root);
    const io = { stdin: JSON.stringify(payload), env: {}, clock: fixedClock("2026-07-01T09:00:00.000Z") };
    const layout = new WorkspaceLayout(root);
    rescueUnspooled(io);
    expect(spoolBacklog(layout, `claude-${String(payload.session_id)}`)).toBe(1);
    rescueUnspooled(io);
    expect(spoolBacklog(layout, `claude-${String(payload.session_id)}`)).toBe(1);
  });
});
