/**
 * The OpenTelemetry SDK behind Lass's {@link Tracing}: a tracer provider with a batching span
 * processor and the OTLP/HTTP exporter (protobuf or JSON). The only module that imports
 * `@opentelemetry/*`; `telemetry.ts` loads it when telemetry turns on.
 */
import {
  type Attributes,
  type Context,
  context as contextApi,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import {
  type ExportResult,
  ExportResultCode,
  W3CTraceContextPropagator,
} from "@opentelemetry/core";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import { VERSION } from "../version.ts";
import type {
  SpanAttributes,
  SpanFailure,
  SpanOptions,
  TelemetrySettings,
  TraceSpan,
  Tracing,
} from "./types.ts";

/** How often ended spans are sent, at the latest. */
const EXPORT_DELAY_MS = 1000;

const propagator = new W3CTraceContextPropagator();

/** Opens the exporter of `settings`; `onError` hears of each batch that could not be sent. */
export function createTracing(
  settings: TelemetrySettings,
  onError: (message: string) => void,
): Tracing {
  const options = { url: settings.url, headers: settings.headers };
  const exporter = reporting(
    settings.protocol === "http/json" ? new JsonExporter(options) : new ProtobufExporter(options),
    onError,
  );
  const provider = new TracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: settings.serviceName,
      [ATTR_SERVICE_VERSION]: VERSION,
    }),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: EXPORT_DELAY_MS })],
  });
  const tracer = provider.getTracer("lass", VERSION);
  const open = (name: string, options: SpanOptions, parent: Context): TraceSpan => {
    const span = tracer.startSpan(name, {
      kind: options.kind === "client" ? SpanKind.CLIENT : SpanKind.INTERNAL,
      attributes: sdkAttributes(options.attributes),
    }, parent);
    return wrap(span, open);
  };
  return {
    startSpan: (name, options = {}) => open(name, options, ROOT_CONTEXT),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/** Our span over an SDK span. */
function wrap(
  span: Span,
  open: (name: string, options: SpanOptions, parent: Context) => TraceSpan,
): TraceSpan {
  let context: Context | undefined;
  const contextOf = () => context ??= trace.setSpan(ROOT_CONTEXT, span);
  // The W3C headers are made when a request asks for them (most spans never carry one).
  let carrier: Record<string, string> | undefined;
  const headers = () => {
    if (carrier) return carrier;
    carrier = {};
    propagator.inject(contextOf(), carrier, {
      set: (target, key, value) => void ((target as Record<string, string>)[key] = value),
    });
    return carrier;
  };
  let ended = false;
  return {
    get traceId() {
      return span.spanContext().traceId;
    },
    get traceparent() {
      return headers().traceparent;
    },
    get tracestate() {
      return headers().tracestate || undefined;
    },
    set: (attributes) => void span.setAttributes(sdkAttributes(attributes)),
    child: (name, options = {}) => open(name, options, contextOf()),
    end: (failure?: SpanFailure) => {
      if (ended) return;
      ended = true;
      if (failure) {
        span.setAttribute("error.type", failure.type);
        span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
      }
      span.end();
    },
  };
}

/** The attributes as the SDK takes them (it skips those whose value is `undefined`). */
function sdkAttributes(attributes: SpanAttributes | undefined): Attributes {
  return (attributes ?? {}) as Attributes;
}

/** An exporter that reports each batch it could not send. */
function reporting(exporter: SpanExporter, onError: (message: string) => void): SpanExporter {
  return {
    export: (spans: ReadableSpan[], done: (result: ExportResult) => void) =>
      // The export's own requests are not traced (no context carries a span into them).
      contextApi.with(ROOT_CONTEXT, () =>
        exporter.export(spans, (result) => {
          if (result.code !== ExportResultCode.SUCCESS) {
            onError(result.error?.message ?? "the receiver did not take the spans");
          }
          done(result);
        })),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
