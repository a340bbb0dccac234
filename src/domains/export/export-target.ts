// Where an export goes and how: the traces URL, the protocol and the headers, from flags, the standard
// OTEL_EXPORTER_OTLP_* variables and the policy, in that order (docs/otel.md, "Configuration"). Pure:
// the environment comes in as a value. Header values are secrets: they are never printed or stored.
import { AopError } from "../../core/errors.js";
import { parseHeaderFlag, parseHeaderList, splitUserInfo } from "./export-headers.js";
import type { OtlpProtocol } from "./otlp-encode.js";
import { redactUrl, urlSecrets } from "./redact.js";

export { parseHeaderList } from "./export-headers.js";
export { redactUrl } from "./redact.js";

export interface OtlpPolicy {
  enabled: boolean;
  endpoint: string | null;
  protocol: OtlpProtocol;
  headers_env: string | null;
}

export interface TargetFlags {
  endpoint?: string | undefined;
  protocol?: string | undefined;
  headers?: string[] | undefined;
}

export interface HttpTarget {
  kind: "http";
  /** The URL requests go to: the configured one without its user info, which travels as Basic credentials. */
  url: string;
  /** The URL as it may be shown (redactUrl of the configured one). */
  display: string;
  /** What must not appear in text quoted from fetch or the receiver: the URL's password and query, the header values. */
  secrets: string[];
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  /** Per-batch budget for the request and its retries (OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT). */
  timeoutMs: number;
  /** Where the endpoint came from, for messages. */
  source: string;
}

const PROTOCOLS: readonly OtlpProtocol[] = ["http/json", "http/protobuf"];
/** The OTLP default (the specification's, and the official SDKs'). */
const DEFAULT_PROTOCOL: OtlpProtocol = "http/protobuf";
const DEFAULT_TIMEOUT_MS = 10_000;
const TRACES_PATH = "v1/traces";

function usage(message: string, hint?: string): AopError {
  return new AopError("usage_error", message, hint === undefined ? {} : { hint });
}

function parseProtocol(value: string, source: string): OtlpProtocol {
  if ((PROTOCOLS as readonly string[]).includes(value)) return value as OtlpProtocol;
  if (value === "grpc") throw usage(`${source}: grpc is not supported; aop exports OTLP over HTTP`, "use http/protobuf (Collector port 4318) or http/json");
  throw usage(`${source} must be http/json or http/protobuf (got '${value.slice(0, 40)}')`);
}

function parseUrl(value: string, source: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usage(`${source} is not a URL (got '${redactUrl(value)}')`, "for example http://localhost:4318/v1/traces");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw usage(`${source} must be an http:// or https:// URL (got '${url.protocol}')`);
  return url;
}

/** A signal-specific URL is used as given, except that a bare host gets /v1/traces (no receiver takes traces at /). */
function tracesUrl(value: string, source: string): string {
  const url = parseUrl(value, source);
  if (url.pathname === "/" || url.pathname === "") url.pathname = `/${TRACES_PATH}`;
  return url.href;
}

/** OTEL_EXPORTER_OTLP_ENDPOINT is a base URL: the signal path is appended to it. */
function baseUrl(value: string, source: string): string {
  const url = parseUrl(value, source);
  url.pathname = url.pathname.endsWith("/") ? url.pathname + TRACES_PATH : `${url.pathname}/${TRACES_PATH}`;
  return url.href;
}

/** Ten minutes a batch: far beyond any receiver's answer, and within what timers and AbortSignal.timeout take. */
export const MAX_TIMEOUT_MS = 600_000;

/**
 * A whole number of milliseconds within [min, max] from an OTEL_* variable. A value out of range is
 * refused rather than used: 5000000000 made every request fail before it was sent, retried for years.
 */
export function millisSetting(name: string, raw: string, min: number, max: number): number {
  const text = raw.trim();
  const ms = /^\d{1,16}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(ms) || ms < min || ms > max) {
    throw usage(`${name} must be a positive number of milliseconds: a whole number from ${min} to ${max} (got '${raw.slice(0, 40)}')`, `it is the time budget per batch, retries included; unset ${name} for the default of ${DEFAULT_TIMEOUT_MS} ms`);
  }
  return ms;
}

/** The time budget per batch. aop reads no other numeric OTEL_* variable. */
function envTimeout(env: NodeJS.ProcessEnv): number {
  for (const name of ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"]) {
    const raw = env[name];
    // An empty variable is unset (the OpenTelemetry rule for every OTEL_* variable).
    if (raw === undefined || raw === "") continue;
    return millisSetting(name, raw, 1, MAX_TIMEOUT_MS);
  }
  return DEFAULT_TIMEOUT_MS;
}

/**
 * The HTTP target. Headers travel with the endpoint they were configured for: the policy's
 * `headers_env` only ever goes to the policy's endpoint, the OTEL variables to a flag or env endpoint.
 */
export function resolveHttpTarget(flags: TargetFlags, env: NodeJS.ProcessEnv, policy: OtlpPolicy | null): HttpTarget {
  const usePolicy = policy?.enabled === true;
  let url: string;
  let source: string;
  let headers: Record<string, string>;
  const otelHeaders = (): Record<string, string> => ({
    ...(env.OTEL_EXPORTER_OTLP_HEADERS ? parseHeaderList(env.OTEL_EXPORTER_OTLP_HEADERS, "OTEL_EXPORTER_OTLP_HEADERS") : {}),
    ...(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS ? parseHeaderList(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS, "OTEL_EXPORTER_OTLP_TRACES_HEADERS") : {}),
  });
  if (flags.endpoint !== undefined) {
    url = tracesUrl(flags.endpoint, "--endpoint");
    source = "--endpoint";
    headers = otelHeaders();
  } else if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
    url = parseUrl(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").href;
    source = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";
    headers = otelHeaders();
  } else if (env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    url = baseUrl(env.OTEL_EXPORTER_OTLP_ENDPOINT, "OTEL_EXPORTER_OTLP_ENDPOINT");
    source = "OTEL_EXPORTER_OTLP_ENDPOINT";
    headers = otelHeaders();
  } else if (usePolicy && policy.endpoint !== null) {
    url = tracesUrl(policy.endpoint, "policy observability.export.otlp.endpoint");
    source = "policy.yaml";
    headers = policyHeaders(policy, env);
  } else {
    throw usage(
      "no OTLP endpoint: nothing says where to send the traces",
      "pass --endpoint URL, set OTEL_EXPORTER_OTLP_ENDPOINT, enable observability.export.otlp in policy.yaml, or write a file with --out FILE",
    );
  }
  for (const flag of flags.headers ?? []) {
    const [name, value] = parseHeaderFlag(flag);
    headers[name] = value;
  }
  // fetch refuses a URL with user info (and its error quotes the URL): it goes as Basic credentials instead.
  const { url: bare, authorization } = splitUserInfo(url);
  if (authorization !== null) {
    if (headers.authorization !== undefined) throw usage(`${source} has user:password@ and an authorization header is set too`, "keep one: remove the user info from the URL, or the authorization header");
    headers.authorization = authorization;
  }
  return {
    kind: "http",
    url: bare,
    display: redactUrl(url),
    secrets: [...urlSecrets(url), ...Object.values(headers)],
    protocol: resolveProtocol(flags, env, usePolicy ? policy : null),
    headers,
    timeoutMs: envTimeout(env),
    source,
  };
}

function resolveProtocol(flags: TargetFlags, env: NodeJS.ProcessEnv, policy: OtlpPolicy | null): OtlpProtocol {
  if (flags.protocol !== undefined) return parseProtocol(flags.protocol, "--protocol");
  for (const name of ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"]) {
    const value = env[name];
    if (value) return parseProtocol(value, name);
  }
  return policy?.enabled ? policy.protocol : DEFAULT_PROTOCOL;
}

function policyHeaders(policy: OtlpPolicy, env: NodeJS.ProcessEnv): Record<string, string> {
  if (policy.headers_env === null) return {};
  const text = env[policy.headers_env];
  if (text === undefined || text === "") {
    throw usage(`policy observability.export.otlp.headers_env names ${policy.headers_env}, which is not set`, `export ${policy.headers_env}='name=value' (the OTEL_EXPORTER_OTLP_HEADERS format) before running aop export`);
  }
  return parseHeaderList(text, policy.headers_env);
}
