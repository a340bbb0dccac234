// POSTs one OTLP request, retrying what the OTLP/HTTP specification calls retryable (429, 502, 503,
// 504; we add the other 5xx and network failures) with exponential backoff, honouring Retry-After,
// all within the batch's time budget. A redirect is a failure, never followed. A failure says what failed
// and never names a header value.
import { setTimeout as wait } from "node:timers/promises";
import { AopError } from "../../core/errors.js";
import { CONTENT_TYPE, rejectedSpans } from "./otlp-encode.js";
import type { HttpTarget } from "./export-target.js";
import { hideSecrets, redirectOrigin } from "./redact.js";

export interface PostOptions {
  userAgent: string;
  /** Called before each retry (for progress and --follow logs). */
  onRetry?: (reason: string, waitMs: number, attempt: number) => void;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Stops the export (--follow's SIGINT/SIGTERM): the request in flight is aborted, no retry starts. */
  signal?: AbortSignal;
}

export interface PostResult {
  attempts: number;
  /** Spans the receiver reported rejecting (OTLP partial success). */
  rejected: number;
  rejectMessage: string;
}

const INITIAL_BACKOFF_MS = 1_000;
const BACKOFF_FACTOR = 1.5;
const MAX_BACKOFF_MS = 5_000;
const JITTER = 0.2;

export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599 && status !== 501 && status !== 505);
}

/** Retry-After as milliseconds (delta-seconds or an HTTP date), or null when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs: number): number | null {
  if (header === null || header.trim() === "") return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, INITIAL_BACKOFF_MS * BACKOFF_FACTOR ** (attempt - 1));
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** A pause that ends early, without error, when the export is stopped. */
const defaultSleep = (ms: number, signal?: AbortSignal) => wait(ms, undefined, signal ? { signal } : {}).catch(() => undefined);

function interrupted(where: string, attempts: number): AopError {
  return new AopError("export_failed", `export to ${where} was interrupted`, { details: { attempts, interrupted: true }, hint: "the batch in flight was not delivered: the cursor did not move, and the next export sends it" });
}

function networkReason(err: unknown): string {
  const error = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (error.name === "TimeoutError") return "the request timed out";
  // fetch reports "fetch failed" and keeps the reason (e.g. "connect ECONNREFUSED 127.0.0.1:4318") in its cause.
  return error.cause?.message ?? error.cause?.code ?? error.message ?? String(err);
}

/** Enough of an error answer to show its start, wherever a secret in it falls. */
const SNIPPET_READ_BYTES = 16 * 1024;
/** An OTLP success answer is a few bytes (a partial success, at most a message): more is not read. */
const ANSWER_READ_BYTES = 64 * 1024;

/** Up to `limit` bytes of an answer's body (DESIGN §23: every network answer is read up to a bound); the rest is dropped. */
async function readUpTo(response: Response, limit: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  try {
    while (reader && size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader?.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, limit);
}

async function responseSnippet(response: Response, quote: (text: string) => string): Promise<string> {
  try {
    const bytes = await readUpTo(response, SNIPPET_READ_BYTES);
    // Secrets are hidden before the text is cut, so a cut never leaves the start of one.
    const text = quote(new TextDecoder().decode(bytes)).slice(0, 200);
    // The receiver's text reaches a terminal: control characters are escaped.
    return JSON.stringify(text).slice(1, -1);
  } catch {
    return "";
  }
}

export async function postOtlp(target: HttpTarget, body: Uint8Array, options: PostOptions): Promise<PostResult> {
  const sleep = options.sleep ?? defaultSleep;
  const deadline = Date.now() + target.timeoutMs;
  const where = target.display;
  // fetch's errors and the receiver's answers are quoted: either may repeat the URL's query or a header.
  const quote = (text: string) => hideSecrets(text, target.secrets);
  for (let attempt = 1; ; attempt++) {
    let retryReason: string;
    let hintedWait: number | null = null;
    const remaining = deadline - Date.now();
    if (options.signal?.aborted) throw interrupted(where, attempt - 1);
    try {
      const response = await fetch(target.url, {
        method: "POST",
        headers: { ...target.headers, "content-type": CONTENT_TYPE[target.protocol], "user-agent": options.userAgent },
        body,
        // A delivery is a 2xx from the configured endpoint; a followed redirect would take the spans and
        // the headers elsewhere and report success for a request the endpoint never kept (DESIGN §23).
        redirect: "manual",
        signal: options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(Math.max(1, remaining))]) : AbortSignal.timeout(Math.max(1, remaining)),
      });
      if (response.ok) {
        // Delivered. The answer's body only tells of rejected spans: one cut short (a signal, the network)
        // tells of none, and never makes a delivered batch look undelivered.
        const answer = await readUpTo(response, ANSWER_READ_BYTES).then((bytes) => (bytes.length < ANSWER_READ_BYTES ? bytes : new Uint8Array()), () => new Uint8Array());
        const { rejected, message } = rejectedSpans(answer, target.protocol);
        return { attempts: attempt, rejected, rejectMessage: message };
      }
      const answered = `answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
      if (response.status >= 300 && response.status <= 399) {
        await response.body?.cancel().catch(() => undefined);
        const origin = redirectOrigin(response.headers.get("location"), target.url);
        throw new AopError("export_failed", `the OTLP endpoint ${where} ${answered}: redirect${origin ? ` to ${origin}` : ""} not followed`, {
          details: { status: response.status, attempts: attempt, ...(origin ? { location_origin: origin } : {}) },
          hint: "aop never follows redirects (spans and headers go to the configured endpoint only): if the new address is the receiver, configure it as the endpoint",
        });
      }
      const snippet = await responseSnippet(response, quote);
      const status = `${answered}${snippet ? `: ${snippet}` : ""}`;
      if (!isRetryableStatus(response.status)) {
        throw new AopError("export_failed", `the OTLP endpoint ${where} ${status}`, { details: { status: response.status, attempts: attempt }, hint: hintForStatus(response.status) });
      }
      retryReason = status;
      hintedWait = retryAfterMs(response.headers.get("retry-after"), Date.now());
    } catch (err) {
      if (err instanceof AopError) throw err;
      if (options.signal?.aborted) throw interrupted(where, attempt);
      retryReason = `could not be reached: ${quote(networkReason(err))}`;
    }
    const pauseMs = hintedWait ?? backoffMs(attempt);
    if (Date.now() + pauseMs >= deadline) {
      const budget = `${(target.timeoutMs / 1000).toFixed(1)} s`;
      throw new AopError("export_failed", `the OTLP endpoint ${where} ${retryReason} (${attempt} attempt${attempt === 1 ? "" : "s"} within the ${budget} export timeout)`, {
        details: { attempts: attempt, timeout_ms: target.timeoutMs },
        hint: "check that the receiver is running and the URL is right (OTLP/HTTP listens on port 4318 by default); OTEL_EXPORTER_OTLP_TIMEOUT sets the time budget per batch",
      });
    }
    options.onRetry?.(retryReason, pauseMs, attempt);
    await sleep(pauseMs, options.signal);
  }
}

function hintForStatus(status: number): string {
  if (status === 401 || status === 403) return "the receiver refused the credentials: check the headers (--header, OTEL_EXPORTER_OTLP_HEADERS or the policy's headers_env)";
  if (status === 404) return "nothing takes traces at that path: OTLP/HTTP receivers listen on /v1/traces (pass the full URL, or OTEL_EXPORTER_OTLP_ENDPOINT as the base)";
  if (status === 413) return "the receiver limits request sizes: lower --batch-size";
  if (status === 415 || status === 400) return "the receiver may not accept this encoding: try --protocol http/json or http/protobuf";
  return "the receiver refused the request; the cursor did not move, so nothing is lost";
}
