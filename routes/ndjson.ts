/** NDJSON: one JSON value per line, UTF-8, each line flushed as it is produced. */
import { respond, type RespondInit } from "./http.ts";

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
export function ndjsonResponse(source: ReadableStream<unknown>, init: RespondInit = {}): Response {
  return respond(source.pipeThrough(ndjsonEncoder()), {
    ...init,
    type: "application/x-ndjson; charset=utf-8",
    headers: { "cache-control": "no-store", ...init.headers },
  });
}

/**
 * A streamed `application/x-ndjson` response of the values an async generator yields, one line
 * each, pulled as the client reads. A client that goes away cancels the body: `onCancel` runs
 * and the generator is ended.
 */
export function ndjsonGeneratorResponse(
  values: AsyncGenerator<unknown>,
  onCancel: () => void,
  init: RespondInit = {},
): Response {
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await values.next();
      if (next.done) controller.close();
      else controller.enqueue(encodeLine(next.value));
    },
    async cancel() {
      onCancel();
      await values.return(undefined);
    },
  });
  return respond(body, {
    ...init,
    type: "application/x-ndjson; charset=utf-8",
    headers: { "cache-control": "no-store", ...init.headers },
  });
}
