// The export domain's public surface: runs as OpenTelemetry GenAI traces over OTLP/HTTP (JSON or
// protobuf) or into an OTLP file, incrementally (docs/otel.md). The adapters import only from here.
export { fileDelivery, httpDelivery, type Delivery } from "./export-delivery.js";
export { followExports, type FollowHandlers } from "./export-follow.js";
export { DEFAULT_BATCH_ENTRIES, exportRun, type ExportOptions, type RunExport } from "./export-service.js";
export { DEFAULT_PROTOCOL, parseProtocol, redactUrl, resolveHttpTarget, type HttpTarget, type OtlpPolicy, type TargetFlags } from "./export-target.js";
export { OtlpEncoder, type OtlpProtocol } from "./otlp-encode.js";
export { parseSince, selectRuns, unreadableRun, type RunSelection, type SelectedRuns, type SkippedRun } from "./run-selection.js";
export { RunSpanBuilder, emptyEnvelopes, type EnvelopeState } from "./run-spans.js";
export { AOP, OTEL } from "./semconv.js";
export { agentSpanId, entrySpanId, rootSpanId, stepSpanId, traceIdFor } from "./span-ids.js";
export type { SpanRecord } from "./span-record.js";
