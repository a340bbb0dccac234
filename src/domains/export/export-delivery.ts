// Where encoded batches go: an OTLP/HTTP endpoint, or an OTLP file (one TracesData JSON per line).
import fs from "node:fs";
import path from "node:path";
import { AopError } from "../../core/errors.js";
import { appendJsonLine } from "../../store/jsonl.js";
import { RUNTIME_FILE_MODE } from "../../store/layout.js";
import type { OtlpProtocol } from "./otlp-encode.js";
import { postOtlp, type PostOptions } from "./otlp-http.js";
import type { HttpTarget } from "./export-target.js";

interface Delivered {
  attempts: number;
  rejected: number;
  rejectMessage: string;
}

export interface Delivery {
  /** What the cursor is keyed on: the full URL, or the file's absolute path. */
  identity: string;
  /** How the target may be shown (no credentials). */
  display: string;
  protocol: OtlpProtocol;
  /** For files: the size the cursor last saw, to notice a hand-over file removed or replaced. */
  currentSize?: () => number | null;
  /** `signal` stops a request in flight (the batch is then not delivered). */
  send(body: Uint8Array, signal?: AbortSignal): Promise<Delivered>;
}

export function httpDelivery(target: HttpTarget, options: PostOptions): Delivery {
  return {
    identity: target.url,
    display: target.display,
    protocol: target.protocol,
    send: (body, signal) => postOtlp(target, body, signal ? { ...options, signal } : options),
  };
}

/** The OTLP file format: JSON Lines of TracesData, each appended with one write (mode 0600 when created). */
export function fileDelivery(file: string): Delivery {
  const absolute = path.resolve(file);
  const decoder = new TextDecoder();
  return {
    identity: `file:${absolute}`,
    display: absolute,
    protocol: "http/json",
    currentSize: () => fs.statSync(absolute, { throwIfNoEntry: false })?.size ?? null,
    send: (body) => {
      try {
        appendJsonLine(absolute, decoder.decode(body), { mode: RUNTIME_FILE_MODE });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? "";
        throw new AopError("export_failed", `could not write ${absolute}: ${code || (err as Error).message}`, { details: { path: absolute } });
      }
      return Promise.resolve({ attempts: 1, rejected: 0, rejectMessage: "" });
    },
  };
}
