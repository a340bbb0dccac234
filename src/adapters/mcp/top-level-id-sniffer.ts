// Finds the top-level "id" of a JSON-RPC message while the message streams past, without holding it:
// the id of an oversize request is needed to answer it, and SDK clients write the id last.
/**
 * Streams through one JSON text, byte by byte, and remembers the raw value of the top-level "id" key
 * (at most 256 bytes of it). Never holds the document. SDK clients write `{"method",...,"params":{...},
 * "jsonrpc":"2.0","id":N}` (id last), so the id of an oversize request is only known at its end.
 */
export class TopLevelIdSniffer {
  private depth = 0;
  private inString = false;
  private escape = false;
  private keyPosition = false; // at depth 1, the next string is a key
  private collectingKey: number[] | undefined;
  private lastKey: string | undefined;
  private valueFor: string | undefined; // key whose value follows (at depth 1)
  private idRaw: number[] | undefined;
  private idDone = false;

  feed(buf: Buffer): void {
    for (let i = 0; i < buf.length; i++) {
      const c = buf[i]!;
      const capturing = this.valueFor === "id" && !this.idDone && this.depth >= 1;
      if (capturing && !(this.depth === 1 && !this.inString && (c === 44 || c === 125))) {
        if (this.idRaw!.length < 256) this.idRaw!.push(c);
      }
      if (this.inString) {
        if (this.escape) this.escape = false;
        else if (c === 92) this.escape = true;
        else if (c === 34) {
          this.inString = false;
          if (this.collectingKey) {
            this.lastKey = Buffer.from(this.collectingKey).toString("utf8");
            this.collectingKey = undefined;
          }
          continue;
        }
        if (this.collectingKey && this.collectingKey.length < 64) this.collectingKey.push(c);
        continue;
      }
      switch (c) {
        case 34: // "
          this.inString = true;
          if (this.depth === 1 && this.keyPosition) {
            this.collectingKey = [];
            this.keyPosition = false;
          }
          break;
        case 123: // {
        case 91: // [
          this.depth++;
          if (this.depth === 1 && c === 123) this.keyPosition = true;
          break;
        case 125: // }
        case 93: // ]
          if (this.depth === 1) this.endValue();
          this.depth--;
          break;
        case 58: // :
          if (this.depth === 1 && this.lastKey !== undefined) {
            this.valueFor = this.lastKey;
            this.lastKey = undefined;
            if (this.valueFor === "id" && !this.idDone) this.idRaw = [];
          }
          break;
        case 44: // ,
          if (this.depth === 1) {
            this.endValue();
            this.keyPosition = true;
          }
          break;
      }
    }
  }

  private endValue(): void {
    if (this.valueFor === "id" && this.idRaw) this.idDone = true;
    this.valueFor = undefined;
  }

  /** The top-level id if it was a string or a number, else null. */
  id(): string | number | null {
    if (!this.idRaw) return null;
    try {
      const v: unknown = JSON.parse(Buffer.from(this.idRaw).toString("utf8"));
      return typeof v === "string" || typeof v === "number" ? v : null;
    } catch {
      return null;
    }
  }
}
