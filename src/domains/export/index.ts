// The export domain's public surface: runs as OpenTelemetry GenAI traces over OTLP/HTTP (JSON or
// protobuf) or into an OTLP file, incrementally (docs/otel.md). The adapters import only from here.
export { fileDelivery, httpDelivery, type Delivery } from "./export-delivery.js";
export { followExports } from "./export-follow.js";
export { exportRun, type ExportOptions, type RunExport } from "./export-service.js";
export { resolveHttpTarget } from "./export-target.js";
export { OtlpEncoder } from "./otlp-encode.js";
export { parseSince, selectRuns, unreadableRun, type RunSelection, type SkippedRun } from "./run-selection.js";
export type { SpanRecord } from "./span-record.js";
/** @public The export bench (bench/suites/90-export.mjs) builds and batches spans from dist/ as the service does. */
export { RunSpanBuilder, emptyEnvelopes } from "./run-spans.js";
/** @public */
export { DEFAULT_BATCH_ENTRIES } from "./export-service.js";
