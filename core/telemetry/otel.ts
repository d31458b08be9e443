/**
 * The OpenTelemetry side of Lass's {@link Tracing}: spans are recorded by Lass's own light
 * recorder (a few fields and two clock reads; nothing of the SDK runs while a turn does) and
 * handed, once ended, to the SDK's batching span processor, whose OTLP/HTTP exporter (protobuf or
 * JSON) sends them. The SDK's own tracer costs about 5 % of a short turn's time to first text (it
 * cleans attributes twice, samples and counts metrics per span); the recorder makes only what the
 * exporter reads. The only module that imports `@opentelemetry/*`; `telemetry.ts` loads it when
 * telemetry turns on.
 */
import {
  type Attributes,
  context as contextApi,
  type HrTime,
  ROOT_CONTEXT,
  type SpanContext,
  SpanKind,
  type SpanStatus,
  SpanStatusCode,
  TraceFlags,
} from "@opentelemetry/api";
import { type ExportResult, ExportResultCode } from "@opentelemetry/core";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { type Resource, resourceFromAttributes } from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  RandomIdGenerator,
  type ReadableSpan,
  type SpanExporter,
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

/** The instrumentation scope of every span. */
const SCOPE = { name: "lass", version: VERSION };

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
  const processor = new BatchSpanProcessor({ exporter, scheduledDelayMillis: EXPORT_DELAY_MS });
  const recorder: Recorder = {
    ids: new RandomIdGenerator(),
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: settings.serviceName,
      [ATTR_SERVICE_VERSION]: VERSION,
    }),
    ended: (span) => processor.onEnd(span),
  };
  return {
    startSpan: (name, options = {}) => new RecordedSpan(recorder, name, options),
    flush: () => processor.forceFlush(),
    shutdown: () => processor.shutdown(),
  };
}

/** What every span of one exporter shares. */
interface Recorder {
  ids: RandomIdGenerator;
  resource: Resource;
  /** Takes an ended span to the batch. */
  ended(span: ReadableSpan): void;
}

/** A span as Lass records it; once ended it is the SDK's `ReadableSpan` the exporter reads. */
class RecordedSpan implements TraceSpan, ReadableSpan {
  readonly name: string;
  readonly kind: SpanKind;
  readonly parentSpanContext: SpanContext | undefined;
  readonly startTime: HrTime;
  endTime: HrTime = [0, 0];
  status: SpanStatus = { code: SpanStatusCode.UNSET };
  readonly attributes: Attributes = {};
  readonly links = [];
  readonly events = [];
  readonly droppedAttributesCount = 0;
  readonly droppedEventsCount = 0;
  readonly droppedLinksCount = 0;
  readonly instrumentationScope = SCOPE;
  ended = false;
  readonly #recorder: Recorder;
  readonly #context: SpanContext;
  readonly #startMs: number;

  constructor(recorder: Recorder, name: string, options: SpanOptions, parent?: RecordedSpan) {
    this.#recorder = recorder;
    this.name = name;
    this.kind = options.kind === "client" ? SpanKind.CLIENT : SpanKind.INTERNAL;
    this.parentSpanContext = parent?.spanContext();
    this.#context = {
      traceId: this.parentSpanContext?.traceId ?? recorder.ids.generateTraceId(),
      spanId: recorder.ids.generateSpanId(),
      traceFlags: TraceFlags.SAMPLED,
    };
    this.#startMs = performance.now();
    this.startTime = hrTimeAt(this.#startMs);
    if (options.attributes) this.set(options.attributes);
  }

  get resource(): Resource {
    return this.#recorder.resource;
  }

  get duration(): HrTime {
    return durationOf(this.startTime, this.endTime);
  }

  spanContext(): SpanContext {
    return this.#context;
  }

  get traceId(): string {
    return this.#context.traceId;
  }

  get traceparent(): string {
    return `00-${this.#context.traceId}-${this.#context.spanId}-01`;
  }

  set(attributes: SpanAttributes): void {
    if (this.ended) return;
    for (const key in attributes) {
      const value = attributes[key];
      // The SDK's rule: an attribute whose value is `undefined` is left out.
      if (value !== undefined) this.attributes[key] = value;
    }
  }

  child(name: string, options: SpanOptions = {}): TraceSpan {
    return new RecordedSpan(this.#recorder, name, options, this);
  }

  end(failure?: SpanFailure): void {
    if (this.ended) return;
    if (failure) {
      this.attributes["error.type"] = failure.type;
      this.status = { code: SpanStatusCode.ERROR, message: failure.message };
    }
    this.ended = true;
    this.endTime = hrTimeAt(Math.max(performance.now(), this.#startMs));
    this.#recorder.ended(this);
  }
}

/** The wall-clock time at `performance.now()` reading `ms`, as OpenTelemetry's `[s, ns]`. */
function hrTimeAt(ms: number): HrTime {
  const epochMs = performance.timeOrigin + ms;
  const seconds = Math.floor(epochMs / 1000);
  return [seconds, Math.round((epochMs - seconds * 1000) * 1e6)];
}

/** `end - start` as `[s, ns]`. */
function durationOf(start: HrTime, end: HrTime): HrTime {
  let seconds = end[0] - start[0];
  let nanos = end[1] - start[1];
  if (nanos < 0) {
    seconds -= 1;
    nanos += 1e9;
  }
  return [seconds, nanos];
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
