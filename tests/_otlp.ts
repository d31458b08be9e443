/**
 * An OTLP/HTTP trace receiver on loopback for the telemetry tests: it takes `POST /v1/traces` in
 * either encoding (protobuf, decoded with protobufjs from `fixtures/otlp_trace.proto`; JSON) and
 * keeps each span with its resource, plus each request's headers and content type.
 */
import { readFileSync } from "node:fs";
import protobuf from "protobufjs";

/** A received span, the same whichever encoding carried it. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client (OTLP's SpanKind). */
  kind: number;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
  resource: Record<string, unknown>;
  /** Start and end, in ms since the epoch (from the unix nanoseconds). */
  startMs: number;
  endMs: number;
}

/** A running receiver. */
export interface OtlpReceiver {
  /** The base endpoint (`http://127.0.0.1:<port>`); traces go to `/v1/traces` below it. */
  endpoint: string;
  spans: ReceivedSpan[];
  requests: { contentType: string; headers: Headers }[];
  close(): Promise<void>;
}

const proto = protobuf.parse(
  readFileSync(new URL("./fixtures/otlp_trace.proto", import.meta.url), "utf8"),
).root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");

// deno-lint-ignore no-explicit-any
type Json = any;

/** Starts a receiver on a free loopback port. */
export function startOtlpReceiver(): OtlpReceiver {
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver["requests"] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method !== "POST" || url.pathname !== "/v1/traces") {
      await req.body?.cancel();
      return new Response("not found", { status: 404 });
    }
    const contentType = req.headers.get("content-type") ?? "";
    requests.push({ contentType, headers: req.headers });
    const bytes = new Uint8Array(await req.arrayBuffer());
    const body = contentType.includes("json")
      ? { message: JSON.parse(new TextDecoder().decode(bytes)), ids: "hex" as const }
      : {
        message: proto.toObject(proto.decode(bytes), { longs: Number, bytes: String }),
        ids: "base64" as const,
      };
    spans.push(...spansOf(body.message, body.ids));
    const answer = contentType.includes("json") ? "{}" : new Uint8Array();
    return new Response(answer, { headers: { "content-type": contentType } });
  });
  const { port } = server.addr as Deno.NetAddr;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () => server.shutdown(),
  };
}

/** The spans of one export request. */
function spansOf(message: Json, ids: "hex" | "base64"): ReceivedSpan[] {
  const id = (value: string | undefined) =>
    !value ? "" : ids === "hex" ? value : Array.from(
      Uint8Array.from(atob(value), (c) => c.charCodeAt(0)),
      (byte) => byte.toString(16).padStart(2, "0"),
    ).join("");
  return (message.resourceSpans ?? []).flatMap((resourceSpans: Json) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope: Json) =>
      (scope.spans ?? []).map((span: Json): ReceivedSpan => ({
        traceId: id(span.traceId),
        spanId: id(span.spanId),
        parentSpanId: id(span.parentSpanId),
        name: span.name,
        kind: span.kind ?? 0,
        attributes: attributesOf(span.attributes),
        status: { code: span.status?.code ?? 0, message: span.status?.message || undefined },
        resource,
        startMs: Number(span.startTimeUnixNano) / 1e6,
        endMs: Number(span.endTimeUnixNano) / 1e6,
      }))
    );
  });
}

function attributesOf(list: Json[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((pair) => [pair.key, valueOf(pair.value)]));
}

/** An OTLP AnyValue as a plain value (int64s as numbers). */
function valueOf(value: Json): unknown {
  if (value === undefined || value === null) return undefined;
  if ("stringValue" in value) return value.stringValue;
  if ("boolValue" in value) return value.boolValue;
  if ("intValue" in value) return Number(value.intValue);
  if ("doubleValue" in value) return value.doubleValue;
  if ("arrayValue" in value) return (value.arrayValue.values ?? []).map(valueOf);
  return undefined;
}
