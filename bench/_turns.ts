/** A chat turn as its client sees it: the NDJSON chunks of `POST /api/chat`, timed as they arrive. */

const encoder = new TextEncoder();

/** What one turn looked like to its client; times in ms from the request (or `streamText`). */
export interface TurnTiming {
  firstChunkMs: number;
  firstTextMs: number;
  totalMs: number;
  textChunks: number;
  /** UTF-8 bytes of the text deltas. */
  textBytes: number;
  /** NDJSON bytes received (0 for the direct side). */
  wireBytes: number;
  toolResults: number;
  /** The tool count of Lass's `start` chunk. */
  tools?: number;
  finished: boolean;
  error?: string;
}

/** p50 and p99 of a list of milliseconds. */
export interface Latency {
  p50Ms: number;
  p99Ms: number;
}

/** The value at fraction `p` of an ascending list (nearest rank). */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** p50 and p99 of the times that were measured (NaN means the turn never got that far). */
export function latency(times: number[]): Latency {
  const sorted = times.filter((t) => !Number.isNaN(t)).sort((a, b) => a - b);
  return { p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99) };
}

/** A turn before anything arrived. */
export function emptyTiming(): TurnTiming {
  return {
    firstChunkMs: NaN,
    firstTextMs: NaN,
    totalMs: NaN,
    textChunks: 0,
    textBytes: 0,
    wireBytes: 0,
    toolResults: 0,
    finished: false,
  };
}

/** Counts one text delta that arrived `at` ms into the turn. */
export function noteText(timing: TurnTiming, text: string, at: number): void {
  if (Number.isNaN(timing.firstTextMs)) timing.firstTextMs = at;
  timing.textChunks++;
  timing.textBytes += encoder.encode(text).byteLength;
}

/** Counts one NDJSON chunk of `POST /api/chat`. */
function noteChunk(timing: TurnTiming, chunk: Record<string, unknown>, at: number): void {
  if (Number.isNaN(timing.firstChunkMs)) timing.firstChunkMs = at;
  switch (chunk.type) {
    case "start":
      timing.tools = chunk.tools as number;
      break;
    case "text":
      noteText(timing, chunk.text as string, at);
      break;
    case "tool-result":
      timing.toolResults++;
      break;
    case "finish":
      timing.finished = true;
      break;
    case "error":
      timing.error = chunk.message as string;
      break;
  }
}

/** Reads an NDJSON chat response to its end, timing each line from `started`. */
export function readChat(response: Response, started: number): Promise<TurnTiming> {
  return readChatBody(response.body!, started);
}

/** Reads the bytes of an NDJSON chat response to their end, timing each line from `started`. */
export async function readChatBody(
  body: AsyncIterable<Uint8Array>,
  started: number,
): Promise<TurnTiming> {
  const timing = emptyTiming();
  const decoder = new TextDecoder();
  let rest = "";
  for await (const bytes of body) {
    const at = performance.now() - started;
    timing.wireBytes += bytes.byteLength;
    const lines = (rest + decoder.decode(bytes, { stream: true })).split("\n");
    rest = lines.pop()!;
    for (const line of lines) noteChunk(timing, JSON.parse(line), at);
  }
  timing.totalMs = performance.now() - started;
  return timing;
}
