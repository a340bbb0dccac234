// Progress for long work: written to stderr, and only when stderr is a terminal.
import { escapeControl, escapeInline } from "./escape.js";

export interface Progress {
  update(text: string): void;
  done(finalLine?: string): void;
}

/**
 * Progress on `stream` (stderr unless given) when it is a terminal, never with `off` (--json). The
 * stream is asked for at the first update: work that ends before any progress never creates
 * process.stderr, which on a pipe loads net and every stream module.
 */
export function createProgress(stream?: NodeJS.WriteStream, options: { off?: boolean } = {}): Progress {
  let out = stream;
  let enabled = options.off === true ? false : undefined;
  const on = (): boolean => (enabled ??= (out ??= process.stderr).isTTY === true);
  let shown = false;
  let last = 0;
  return {
    update(text) {
      if (!on()) return;
      const now = Date.now();
      if (now - last < 50) return; // redrawing faster than the eye helps only slows the work
      last = now;
      out!.write(`\r\u001b[2K${escapeInline(text)}`);
      shown = true;
    },
    done(finalLine) {
      if (!shown && !finalLine) return; // nothing on screen to clear or add
      if (!on()) return;
      if (shown) out!.write("\r\u001b[2K");
      if (finalLine) out!.write(escapeControl(finalLine) + "\n");
      shown = false;
    },
  };
}
