/**
 * The export worker: encodes and sends the service's ended spans off its event loop, so that a
 * turn never waits for the protobuf encoding of a batch (about 15–20 µs a span). Messages in:
 * `{type: "open", settings}`, `{type: "spans", spans}`, `{type: "flush" | "shutdown", id}`; out:
 * `{type: "ready"}`, `{type: "error", message}`, `{type: "done", id}`.
 */
/// <reference lib="deno.worker" />
import { createOtlpExport, type OtlpExport } from "./otlp_export.ts";
import type { EndedSpan, TelemetrySettings } from "./types.ts";

/** A message the worker takes. */
export type ToWorker =
  | { type: "open"; settings: TelemetrySettings }
  | { type: "spans"; spans: EndedSpan[] }
  | { type: "flush" | "shutdown"; id: number };

/** A message the worker sends. */
export type FromWorker =
  | { type: "ready" }
  | { type: "error"; message: string }
  | { type: "done"; id: number };

const post = (message: FromWorker) => self.postMessage(message);
let exporter: OtlpExport | undefined;
/** The exports sent so far (a flush waits for them). */
let sent = Promise.resolve();

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.type === "open") {
    exporter = createOtlpExport(message.settings, (text) => post({ type: "error", message: text }));
    post({ type: "ready" });
  } else if (message.type === "spans") {
    if (exporter) sent = exporter.send(message.spans);
  } else if (message.type === "flush") {
    sent.then(() => post({ type: "done", id: message.id }));
  } else {
    (exporter?.shutdown() ?? Promise.resolve()).catch(() => {}).then(() =>
      post({ type: "done", id: message.id })
    );
  }
};
