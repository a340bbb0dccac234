// Progress for long work: written to stderr, and only when stderr is a terminal.
import { escapeControl, escapeInline } from "./escape.js";

export interface Progress {
  update(text: string): void;
  done(finalLine?: string): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr, enabled = stream.isTTY === true): Progress {
  let shown = false;
  let last = 0;
  return {
    update(text) {
      if (!enabled) return;
      const now = Date.now();
      if (now - last < 50) return; // redrawing faster than the eye helps only slows the work
      last = now;
      stream.write(`\r\u001b[2K${escapeInline(text)}`);
      shown = true;
    },
    done(finalLine) {
      if (!enabled) return;
      if (shown) stream.write("\r\u001b[2K");
      if (finalLine) stream.write(escapeControl(finalLine) + "\n");
      shown = false;
    },
  };
}
