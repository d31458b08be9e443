/**
 * Lass's own view of tracing: spans it opens and ends, and the exporter behind them. The
 * recorder in `otel.ts` implements it, with the OpenTelemetry exporter in a worker, loaded only when
 * telemetry is on; everything else sees these types only.
 */

/** Attribute values a span takes; `undefined` values are left out. */
export type SpanAttributeValue = string | number | boolean | string[] | number[];

/** A span's attributes by their semantic-convention names. */
export type SpanAttributes = Record<string, SpanAttributeValue | undefined>;

/** How a span is opened. */
export interface SpanOptions {
  /** `client` for a call to another process (a model, a tool server); default `internal`. */
  kind?: "internal" | "client";
  attributes?: SpanAttributes;
}

/** Why a span failed: its `error.type` attribute and its status message. */
export interface SpanFailure {
  type: string;
  message?: string;
}

/** One open span. */
export interface TraceSpan {
  /** The span's trace id (32 hex digits). */
  readonly traceId: string;
  /** The W3C `traceparent` that makes a remote span this span's child. */
  readonly traceparent: string;
  /** The W3C `tracestate`, when the trace carries one. */
  readonly tracestate?: string;
  /** Adds or replaces attributes. */
  set(attributes: SpanAttributes): void;
  /** Opens a child span. */
  child(name: string, options?: SpanOptions): TraceSpan;
  /** Ends the span, failed when `failure` is given; a second call does nothing. */
  end(failure?: SpanFailure): void;
}

/** An exporter of spans, open while telemetry is on. */
export interface Tracing {
  /** Opens the root span of a new trace. */
  startSpan(name: string, options?: SpanOptions): TraceSpan;
  /** Sends every ended span now. */
  flush(): Promise<void>;
  /** Sends what is left and stops. */
  shutdown(): Promise<void>;
}

/** Where and how spans are exported: the config's `telemetry` or the `OTEL_*` variables, resolved. */
export interface TelemetrySettings {
  /** The full URL spans are posted to (`.../v1/traces`). */
  url: string;
  headers: Record<string, string>;
  protocol: "http/protobuf" | "http/json";
  serviceName: string;
  /** Where the settings came from. */
  source: "config" | "env";
}

/**
 * An ended span as the recorder hands it to the exporter (a plain object: it crosses to the
 * export worker as it is).
 */
export interface EndedSpan {
  name: string;
  kind: "internal" | "client";
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  /** Start and end, ms since the epoch (fractions kept). */
  startMs: number;
  endMs: number;
  attributes: Record<string, SpanAttributeValue>;
  /** Set when the span failed: its status message. */
  failed?: { message?: string };
}
