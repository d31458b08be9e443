/** NDJSON: one JSON value per line, UTF-8, each line flushed as it is produced. */

const encoder = new TextEncoder();

/** One NDJSON line (JSON escapes newlines inside strings, so a value never spans lines). */
export function encodeLine(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value) + "\n");
}

/** A stream that turns values into NDJSON lines. */
export function ndjsonEncoder(): TransformStream<unknown, Uint8Array> {
  return new TransformStream({
    transform(value, controller) {
      controller.enqueue(encodeLine(value));
    },
  });
}

/** A streamed `application/x-ndjson` response of the values of `source`. */
export function ndjsonResponse(source: ReadableStream<unknown>, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/x-ndjson; charset=utf-8");
  headers.set("cache-control", "no-store");
  return new Response(source.pipeThrough(ndjsonEncoder()), { ...init, headers });
}
