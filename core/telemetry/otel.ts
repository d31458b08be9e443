/**
 * Lass's {@link Tracing} when telemetry is on: spans are recorded by Lass's own light recorder (a
 * few fields and two clock reads; the OpenTelemetry SDK's tracer cleans the attributes twice,
 * samples and counts metrics per span) and the ended ones are batched, about once a second or by
 * 512, to the export worker (`export_worker.ts`), which encodes and sends them with the official
 * OTLP exporter off the service's event loop. Where no worker can start (a bundle whose modules are
 * not files), the batches are exported in this thread instead.
 */
import { existsSync } from "node:fs";
import type { FromWorker, ToWorker } from "./export_worker.ts";
import type { OtlpExport } from "./otlp_export.ts";
import type {
  EndedSpan,
  SpanAttributes,
  SpanFailure,
  SpanOptions,
  TelemetrySettings,
  TraceSpan,
  Tracing,
} from "./types.ts";

/** How often ended spans are sent, at the latest. */
const EXPORT_DELAY_MS = 1000;
/** A batch this big is sent at once. */
const BATCH_SIZE = 512;
/** Ended spans kept while the exporter is behind; later ones are dropped. */
const MAX_QUEUED = 8192;

/** Whether this process ever exported spans in its own thread (the worker could not start). */
let exportedHere = false;

/** Whether any tracing of this process fell back to exporting in its own thread. */
export function exportedInThread(): boolean {
  return exportedHere;
}

/** Options of {@link createTracing}. */
export interface TracingOptions {
  /** The export worker's module; default `export_worker.ts` beside this module. */
  workerUrl?: string;
}

/** Opens the exporter of `settings`; `onError` hears of each batch that could not be sent. */
export function createTracing(
  settings: TelemetrySettings,
  onError: (message: string) => void,
  options: TracingOptions = {},
): Tracing {
  const workerUrl = options.workerUrl ?? new URL("./export_worker.ts", import.meta.url).href;
  const sink = openSink(settings, onError, workerUrl);
  let queued: EndedSpan[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const sendQueued = () => {
    clearTimeout(timer);
    timer = undefined;
    if (queued.length === 0) return;
    const batch = queued;
    queued = [];
    sink.send(batch);
  };
  const ended = (span: EndedSpan) => {
    if (closed || queued.length >= MAX_QUEUED) return;
    queued.push(span);
    if (queued.length >= BATCH_SIZE) sendQueued();
    else timer ??= setTimeout(sendQueued, EXPORT_DELAY_MS);
  };
  return {
    startSpan: (name, options = {}) => new RecordedSpan(ended, name, options),
    flush: () => {
      sendQueued();
      return sink.flush();
    },
    shutdown: () => {
      sendQueued();
      closed = true;
      return sink.shutdown();
    },
  };
}

/** A span as Lass records it, handed on as an {@link EndedSpan} when it ends. */
class RecordedSpan implements TraceSpan {
  readonly #ended: (span: EndedSpan) => void;
  readonly #span: EndedSpan;
  #open = true;

  constructor(
    ended: (span: EndedSpan) => void,
    name: string,
    options: SpanOptions,
    parent?: EndedSpan,
  ) {
    this.#ended = ended;
    this.#span = {
      name,
      kind: options.kind ?? "internal",
      traceId: parent?.traceId ?? randomHex(16),
      spanId: randomHex(8),
      ...(parent && { parentSpanId: parent.spanId }),
      startMs: performance.timeOrigin + performance.now(),
      endMs: 0,
      attributes: {},
    };
    if (options.attributes) this.set(options.attributes);
  }

  get traceId(): string {
    return this.#span.traceId;
  }

  get traceparent(): string {
    return `00-${this.#span.traceId}-${this.#span.spanId}-01`;
  }

  set(attributes: SpanAttributes): void {
    if (!this.#open) return;
    const kept = this.#span.attributes;
    for (const key in attributes) {
      const value = attributes[key];
      // The SDK's rule: an attribute whose value is `undefined` is left out.
      if (value !== undefined) kept[key] = value;
    }
  }

  child(name: string, options: SpanOptions = {}): TraceSpan {
    return new RecordedSpan(this.#ended, name, options, this.#span);
  }

  end(failure?: SpanFailure): void {
    if (!this.#open) return;
    this.#open = false;
    const span = this.#span;
    if (failure) {
      span.attributes["error.type"] = failure.type;
      span.failed = { message: failure.message };
    }
    span.endMs = performance.timeOrigin + performance.now();
    this.#ended(span);
  }
}

/** `bytes` random bytes as lower-case hex, never all zero (an invalid id in W3C trace context). */
function randomHex(bytes: number): string {
  const random = crypto.getRandomValues(new Uint8Array(bytes));
  if (random.every((byte) => byte === 0)) random[bytes - 1] = 1;
  let hex = "";
  for (const byte of random) hex += (byte < 16 ? "0" : "") + byte.toString(16);
  return hex;
}

/** Where batches go: the export worker, or this thread's exporter when the worker cannot run. */
interface SpanSink {
  send(spans: EndedSpan[]): void;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * The export worker, with this thread's exporter as the fallback: batches wait until the worker
 * says it is ready; if it fails to start, they go to the fallback instead.
 */
function openSink(
  settings: TelemetrySettings,
  onError: (message: string) => void,
  workerUrl: string,
): SpanSink {
  let fallback: Promise<OtlpExport> | undefined;
  const inThread = () =>
    fallback ??= import("./otlp_export.ts").then(({ createOtlpExport }) => {
      exportedHere = true;
      return createOtlpExport(settings, onError);
    });
  let worker: Worker | undefined;
  try {
    // A bundle's modules are not files beside this one: no worker to start (and no error printed).
    if (workerUrl.startsWith("file:") && !existsSync(new URL(workerUrl))) throw new Error("none");
    worker = new Worker(workerUrl, { type: "module" });
  } catch {
    worker = undefined;
  }
  if (!worker) return threadSink(inThread);
  let ready = false;
  let failed = false;
  let pending: ToWorker[] = [];
  let nextId = 1;
  const waiting = new Map<number, () => void>();
  const post = (message: ToWorker) => {
    if (failed) return;
    if (ready) worker!.postMessage(message);
    else pending.push(message);
  };
  const fail = () => {
    if (failed) return;
    failed = true;
    worker!.terminate();
    // What waited for the worker goes to this thread's exporter.
    const spans = pending.flatMap((message) => message.type === "spans" ? [message.spans] : []);
    pending = [];
    inThread().then((exporter) => spans.forEach((batch) => exporter.send(batch)));
    for (const resolve of waiting.values()) resolve();
    waiting.clear();
  };
  worker.onmessage = (event: MessageEvent<FromWorker>) => {
    const message = event.data;
    if (message.type === "ready") {
      ready = true;
      for (const queued of pending) worker!.postMessage(queued);
      pending = [];
    } else if (message.type === "error") onError(message.message);
    else {
      waiting.get(message.id)?.();
      waiting.delete(message.id);
    }
  };
  worker.onerror = (event) => {
    event.preventDefault();
    fail();
  };
  worker.postMessage({ type: "open", settings } satisfies ToWorker);
  const ask = (type: "flush" | "shutdown") =>
    new Promise<void>((resolve) => {
      if (failed) return resolve();
      const id = nextId++;
      waiting.set(id, resolve);
      post({ type, id });
    });
  const fallbackSink = threadSink(inThread);
  return {
    send: (spans) => failed ? fallbackSink.send(spans) : post({ type: "spans", spans }),
    flush: async () => {
      await ask("flush");
      if (failed) await fallbackSink.flush();
    },
    shutdown: async () => {
      await ask("shutdown");
      if (!failed) worker!.terminate();
      else await fallbackSink.shutdown();
    },
  };
}

/** Batches exported in this thread. */
function threadSink(exporter: () => Promise<OtlpExport>): SpanSink {
  let sent = Promise.resolve();
  return {
    send: (spans) => void (sent = exporter().then((open) => open.send(spans))),
    flush: () => sent,
    shutdown: async () => {
      await sent;
      await (await exporter()).shutdown();
    },
  };
}
