/**
 * A streamed HTTP/1.1 POST on a raw socket, one connection per request: the body's bytes as they
 * arrive (chunked transfer decoded). A crowd of these costs the client far less CPU than `fetch`,
 * so a burst measures the server rather than the load generator.
 */

import { requestBytes, writeAll } from "./_raw_http.ts";

const DECODER = new TextDecoder();

/** The status and the streamed body of a response. */
export interface RawStreamResponse {
  status: number;
  body: AsyncIterable<Uint8Array>;
}

/** A growable byte buffer with a read position. */
class Bytes {
  data = new Uint8Array(16 * 1024);
  start = 0;
  end = 0;

  push(chunk: Uint8Array): void {
    if (this.end + chunk.length > this.data.length) {
      const live = this.data.subarray(this.start, this.end);
      const next = new Uint8Array(Math.max(this.data.length, (live.length + chunk.length) * 2));
      next.set(live);
      this.data = next;
      this.end = live.length;
      this.start = 0;
    }
    this.data.set(chunk, this.end);
    this.end += chunk.length;
  }

  /** The index just past the next CRLF, or -1. */
  lineEnd(): number {
    for (let i = this.start + 1; i < this.end; i++) {
      if (this.data[i] === 10 && this.data[i - 1] === 13) return i + 1;
    }
    return -1;
  }

  take(length: number): Uint8Array {
    const taken = this.data.slice(this.start, this.start + length);
    this.start += length;
    return taken;
  }
}

/**
 * Sends `body` to `url` with `headers` and answers once the response head is in. Aborting
 * `signal` closes the connection, which fails the read in progress.
 */
export async function rawStreamingPost(
  url: string,
  headers: Record<string, string>,
  body: string,
  signal?: AbortSignal,
): Promise<RawStreamResponse> {
  const { hostname, port, pathname } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  conn.setNoDelay(true);
  const close = () => {
    try {
      conn.close();
    } catch {
      // Closed already.
    }
  };
  signal?.addEventListener("abort", close, { once: true });
  await writeAll(
    conn,
    requestBytes(
      "POST",
      pathname,
      `${hostname}:${port}`,
      { ...headers, connection: "close" },
      body,
    ),
  );
  const buffer = new Bytes();
  const chunk = new Uint8Array(16 * 1024);
  const read = async (): Promise<boolean> => {
    const n = await conn.read(chunk);
    if (n === null) return false;
    buffer.push(chunk.subarray(0, n));
    return true;
  };
  // The head: the status line and headers, up to the empty line.
  const headLines: string[] = [];
  while (true) {
    const end = buffer.lineEnd();
    if (end < 0) {
      if (!await read()) throw new Error("the connection closed before the response head");
      continue;
    }
    const line = DECODER.decode(buffer.take(end - buffer.start)).trimEnd();
    if (line === "") break;
    headLines.push(line);
  }
  const status = Number(headLines[0]?.split(" ")[1]);
  const chunked = headLines.some((line) => /^transfer-encoding:\s*chunked/i.test(line));
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      if (!chunked) {
        if (buffer.end > buffer.start) yield buffer.take(buffer.end - buffer.start);
        while (await read()) yield buffer.take(buffer.end - buffer.start);
        return;
      }
      while (true) {
        let end = buffer.lineEnd();
        while (end < 0) {
          if (!await read()) throw new Error("the connection closed inside a chunked body");
          end = buffer.lineEnd();
        }
        const size = parseInt(DECODER.decode(buffer.take(end - buffer.start)), 16);
        if (size === 0) return;
        while (buffer.end - buffer.start < size + 2) {
          if (!await read()) throw new Error("the connection closed inside a chunk");
        }
        const data = buffer.take(size);
        buffer.take(2);
        yield data;
      }
    } finally {
      signal?.removeEventListener("abort", close);
      close();
    }
  }
  return { status, body: chunks() };
}
