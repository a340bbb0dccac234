// Span records → the official SDK's ReadableSpan → OTLP bytes, through @opentelemetry/otlp-transformer
// (the 0.223.x line: the last that runs on Node 20; docs/otel.md, "Versions").
import { SpanKind, SpanStatusCode, TraceFlags, type SpanContext } from "@opentelemetry/api";
import { hrTimeDuration, millisToHrTime, type InstrumentationScope } from "@opentelemetry/core";
import { resourceFromAttributes, type Resource } from "@opentelemetry/resources";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { JsonTraceSerializer, ProtobufTraceSerializer, type IExportTraceServiceResponse } from "@opentelemetry/otlp-transformer";
import { OTEL } from "./semconv.js";
import type { SpanRecord } from "./span-record.js";

export type OtlpProtocol = "http/json" | "http/protobuf";

export const CONTENT_TYPE: Record<OtlpProtocol, string> = {
  "http/json": "application/json",
  "http/protobuf": "application/x-protobuf",
};

/**
 * Encodes batches of spans. One resource and one scope object are shared by every span: the
 * serializers group spans into resourceSpans / scopeSpans by object identity.
 */
export class OtlpEncoder {
  private readonly resource: Resource;
  private readonly scope: InstrumentationScope;

  constructor(serviceVersion: string) {
    this.resource = resourceFromAttributes({ [OTEL.serviceName]: "aop", [OTEL.serviceVersion]: serviceVersion });
    this.scope = { name: "aop", version: serviceVersion };
  }

  readableSpans(records: readonly SpanRecord[]): ReadableSpan[] {
    return records.map((r) => this.readableSpan(r));
  }

  /** An ExportTraceServiceRequest (for the file format: one TracesData, the same JSON shape). */
  encode(records: readonly SpanRecord[], protocol: OtlpProtocol): Uint8Array {
    const spans = this.readableSpans(records);
    const bytes = protocol === "http/json" ? JsonTraceSerializer.serializeRequest(spans) : ProtobufTraceSerializer.serializeRequest(spans);
    if (!bytes) throw new Error(`the OTLP ${protocol} serializer produced nothing for ${records.length} spans`);
    return bytes;
  }

  private readableSpan(r: SpanRecord): ReadableSpan {
    const context: SpanContext = { traceId: r.traceId, spanId: r.spanId, traceFlags: TraceFlags.SAMPLED };
    const startTime = millisToHrTime(r.startMs);
    const endTime = millisToHrTime(r.endMs);
    const span: ReadableSpan = {
      name: r.name,
      kind: SpanKind.INTERNAL,
      spanContext: () => context,
      startTime,
      endTime,
      duration: hrTimeDuration(startTime, endTime),
      ended: true,
      status: r.error === null ? { code: SpanStatusCode.UNSET } : { code: SpanStatusCode.ERROR, message: r.error },
      attributes: r.attributes,
      links: [],
      events: [],
      resource: this.resource,
      instrumentationScope: this.scope,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
      ...(r.parentSpanId === null ? {} : { parentSpanContext: { traceId: r.traceId, spanId: r.parentSpanId, traceFlags: TraceFlags.SAMPLED, isRemote: false } }),
    };
    return span;
  }
}

/** Spans a receiver said it rejected (OTLP partial success), from its response body; 0 when none or unreadable. */
export function rejectedSpans(body: Uint8Array, protocol: OtlpProtocol): { rejected: number; message: string } {
  if (body.length === 0) return { rejected: 0, message: "" };
  let response: IExportTraceServiceResponse;
  try {
    response = protocol === "http/json" ? JsonTraceSerializer.deserializeResponse(body) : ProtobufTraceSerializer.deserializeResponse(body);
  } catch {
    return { rejected: 0, message: "" };
  }
  const partial = response.partialSuccess;
  const rejected = Number(partial?.rejectedSpans ?? 0);
  return { rejected: Number.isFinite(rejected) ? rejected : 0, message: typeof partial?.errorMessage === "string" ? partial.errorMessage : "" };
}
