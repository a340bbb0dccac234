// Each client's payload mapping and output shapes, by client name.
import type { HookClient, Mapped, Payload } from "../hook-model.js";
import { codexShapes, mapCodex } from "./codex.js";
import { cursorShapes, mapCursor } from "./cursor.js";
import { geminiShapes, mapGemini } from "./gemini.js";
import { mapOpencode, opencodeShapes } from "./opencode.js";
import { mapOpenclaw, openclawShapes } from "./openclaw.js";
import type { ClientShapes } from "./shapes.js";

export interface ClientHook {
  map(payload: Payload, aopTools: ReadonlySet<string>): Mapped;
  shapes: ClientShapes;
}

export const CLIENT_HOOKS: Record<HookClient, ClientHook> = {
  codex: { map: (p) => mapCodex(p), shapes: codexShapes },
  gemini: { map: (p) => mapGemini(p), shapes: geminiShapes },
  cursor: { map: mapCursor, shapes: cursorShapes },
  opencode: { map: (p) => mapOpencode(p), shapes: opencodeShapes },
  openclaw: { map: (p) => mapOpenclaw(p), shapes: openclawShapes },
};
