// The stdio transport of `aop mcp`: newline-delimited JSON-RPC like the SDK's StdioServerTransport,
// but one bad line never ends the connection (docs/kernel.md):
//   - not JSON                  → error -32700 (id null)
//   - JSON but not JSON-RPC      → error -32600 (its id when it has a usable one, else null)
//   - longer than MAX_LINE_BYTES → skipped as it streams in (never buffered whole) and answered with
//                                  -32000 "Payload Too Large", with the id found while skipping.
// The SDK's transport skips non-JSON lines silently, leaves a malformed request unanswered, and closes
// itself on a line over 10 MiB, which left `aop mcp` waiting on a stdin that never closes.
import type { Readable, Writable } from "node:stream";
import { deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from "./server-sdk.js";
import { TopLevelIdSniffer } from "./top-level-id-sniffer.js";

/** The SDK's own limit for one stdio message (STDIO_DEFAULT_MAX_BUFFER_SIZE). */
const MAX_LINE_BYTES = 10 * 1024 * 1024;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
/** What the SDK's HTTP entry answers for an oversize body. */
const PAYLOAD_TOO_LARGE = -32000;

export class GuardedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private pieces: Buffer[] = [];
  private pieceBytes = 0;
  private skipping: { sniffer: TopLevelIdSniffer; bytes: number } | undefined;
  private started = false;
  private isClosed = false;
  private markClosed!: () => void;
  /** Settles when the connection is over (stdin ended or closed, or close() called). */
  readonly closed = new Promise<void>((resolve) => (this.markClosed = resolve));
  private markSent!: () => void;
  /** Settles once the first message this side sent is written (the server's answer to initialize). */
  readonly firstSent = new Promise<void>((resolve) => (this.markSent = resolve));

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error("the stdio transport is already started");
    this.started = true;
    this.stdin.on("data", this.onData);
    this.stdin.on("error", this.onStreamError);
    this.stdin.on("end", this.onEnd);
    this.stdin.on("close", this.onEnd);
    this.stdout.on("error", this.onStreamError);
  }

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onEnd = (): void => {
    void this.close();
  };

  private readonly onData = (chunk: Buffer): void => {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(10, start);
      this.take(chunk.subarray(start, nl === -1 ? chunk.length : nl));
      if (nl === -1) break;
      this.endOfLine();
      start = nl + 1;
    }
  };

  /** A piece of the current line (no newline in it). */
  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping) {
      this.skipping.sniffer.feed(piece);
      this.skipping.bytes += piece.length;
      return;
    }
    if (this.pieceBytes + piece.length > this.maxLineBytes) {
      // Over the limit: stop buffering, keep only what finds the id.
      const sniffer = new TopLevelIdSniffer();
      for (const p of this.pieces) sniffer.feed(p);
      sniffer.feed(piece);
      this.skipping = { sniffer, bytes: this.pieceBytes + piece.length };
      this.pieces = [];
      this.pieceBytes = 0;
      return;
    }
    this.pieces.push(piece);
    this.pieceBytes += piece.length;
  }

  private endOfLine(): void {
    if (this.skipping) {
      const { sniffer, bytes } = this.skipping;
      this.skipping = undefined;
      this.reject(sniffer.id(), PAYLOAD_TOO_LARGE, `Payload Too Large: a message must not exceed ${this.maxLineBytes} bytes (got ${bytes})`);
      return;
    }
    const buf = this.pieces.length === 1 ? this.pieces[0]! : Buffer.concat(this.pieces, this.pieceBytes);
    this.pieces = [];
    this.pieceBytes = 0;
    const line = buf.toString("utf8").replace(/\r$/, "");
    if (line.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      if (error instanceof SyntaxError) this.reject(null, PARSE_ERROR, `Parse error: ${error.message}`);
      else this.reject(usableId(line), INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message");
      return;
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  private reject(id: string | number | null, code: number, message: string): void {
    if (!this.isClosed) this.stdout.write(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }) + "\n");
    this.onerror?.(new Error(`answered a bad message with ${code}: ${message.slice(0, 200)}`));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.isClosed) throw new Error("the stdio transport is closed");
    const json = serializeMessage(message);
    await new Promise<void>((resolve, reject) => {
      if (this.stdout.write(json, (err) => (err ? reject(err) : this.markSent()))) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onStreamError);
    this.stdin.off("end", this.onEnd);
    this.stdin.off("close", this.onEnd);
    this.stdin.pause();
    this.pieces = [];
    this.skipping = undefined;
    this.onclose?.();
    this.markClosed();
  }
}

function usableId(line: string): string | number | null {
  try {
    const v = JSON.parse(line) as { id?: unknown };
    return v && typeof v === "object" && (typeof v.id === "string" || typeof v.id === "number") ? v.id : null;
  } catch {
    return null;
  }
}
