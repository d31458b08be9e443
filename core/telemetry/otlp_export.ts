/**
 * Ended spans to an OTLP/HTTP receiver with the official exporter (protobuf or JSON): the only
 * module that imports `@opentelemetry/*`. It runs in the export worker (`export_worker.ts`), or in
 * the service's own thread when no worker can start.
 */
import {
  context as contextApi,
  type HrTime,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
} from "@opentelemetry/api";
import { type ExportResult, ExportResultCode } from "@opentelemetry/core";
import { OTLPTraceExporter as ProtobufExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import type { ReadableSpan } from "@opentelemetry/sdk-trace";
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from "@opentelemetry/semantic-conventions";
import { VERSION } from "../version.ts";
import type { EndedSpan, TelemetrySettings } from "./types.ts";

/** Sends batches of ended spans, one export at a time. */
export interface OtlpExport {
  /** Exports a batch (after the ones before it); a failed export goes to `onError`. */
  send(spans: EndedSpan[]): Promise<void>;
  /** Waits for the exports asked for so far, then stops the exporter. */
  shutdown(): Promise<void>;
}

/** Opens the exporter of `settings`; `onError` hears of each batch that could not be sent. */
export function createOtlpExport(
  settings: TelemetrySettings,
  onError: (message: string) => void,
): OtlpExport {
  const options = { url: settings.url, headers: settings.headers };
  const exporter = settings.protocol === "http/json"
    ? new JsonExporter(options)
    : new ProtobufExporter(options);
  const resource = resourceFromAttributes({
    [ATTR_SERVICE_NAME]: settings.serviceName,
    [ATTR_SERVICE_VERSION]: VERSION,
  });
  const scope = { name: "lass", version: VERSION };
  let chain = Promise.resolve();
  const exportOne = (spans: EndedSpan[]) =>
    new Promise<void>((resolve) => {
      const readable = spans.map((span) => readableOf(span, resource, scope));
      // The export's own requests are not traced (no context carries a span into them).
      contextApi.with(ROOT_CONTEXT, () =>
        exporter.export(readable, (result: ExportResult) => {
          if (result.code !== ExportResultCode.SUCCESS) {
            onError(result.error?.message ?? "the receiver did not take the spans");
          }
          resolve();
        }));
    });
  return {
    send: (spans) => chain = chain.then(() => exportOne(spans)),
    shutdown: async () => {
      await chain;
      await exporter.shutdown();
    },
  };
}

/** An ended span as the SDK's exporter reads it. */
function readableOf(
  span: EndedSpan,
  resource: ReadableSpan["resource"],
  instrumentationScope: ReadableSpan["instrumentationScope"],
): ReadableSpan {
  const startTime = hrTime(span.startMs);
  const endTime = hrTime(Math.max(span.endMs, span.startMs));
  const context = { traceId: span.traceId, spanId: span.spanId, traceFlags: TraceFlags.SAMPLED };
  return {
    name: span.name,
    kind: span.kind === "client" ? SpanKind.CLIENT : SpanKind.INTERNAL,
    spanContext: () => context,
    parentSpanContext: span.parentSpanId === undefined ? undefined : {
      traceId: span.traceId,
      spanId: span.parentSpanId,
      traceFlags: TraceFlags.SAMPLED,
    },
    startTime,
    endTime,
    duration: duration(startTime, endTime),
    status: span.failed
      ? { code: SpanStatusCode.ERROR, message: span.failed.message }
      : { code: SpanStatusCode.UNSET },
    attributes: span.attributes,
    links: [],
    events: [],
    ended: true,
    resource,
    instrumentationScope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

/** Ms since the epoch as OpenTelemetry's `[s, ns]`. */
function hrTime(epochMs: number): HrTime {
  const seconds = Math.floor(epochMs / 1000);
  return [seconds, Math.round((epochMs - seconds * 1000) * 1e6)];
}

/** `end - start` as `[s, ns]`. */
function duration(start: HrTime, end: HrTime): HrTime {
  let seconds = end[0] - start[0];
  let nanos = end[1] - start[1];
  if (nanos < 0) {
    seconds -= 1;
    nanos += 1e9;
  }
  return [seconds, nanos];
}
