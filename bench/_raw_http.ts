/** A keep-alive HTTP/1.1 client on one raw socket: far less client overhead than `fetch`. */

const DECODER = new TextDecoder();

/** One request, sent again and again on the same connection. */
export interface RawRequest {
  port: number;
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Sends the request and reads the whole response; only 200 with a content-length is accepted. */
export interface RawClient {
  send(): Promise<void>;
  close(): void;
}

function findHeaderEnd(buffer: Uint8Array, filled: number): number {
  for (let i = 3; i < filled; i++) {
    if (buffer[i] === 10 && buffer[i - 1] === 13 && buffer[i - 2] === 10 && buffer[i - 3] === 13) {
      return i + 1;
    }
  }
  return -1;
}

/** Total response length once the head is in, or -1 while it is not. */
function responseLength(buffer: Uint8Array, filled: number): number {
  const headEnd = findHeaderEnd(buffer, filled);
  if (headEnd < 0) return -1;
  const head = DECODER.decode(buffer.subarray(0, headEnd));
  if (!head.startsWith("HTTP/1.1 200 ")) throw new Error(`unexpected response: ${head}`);
  const length = /\r\ncontent-length: *(\d+)\r\n/i.exec(head);
  if (!length) throw new Error(`response without content-length: ${head}`);
  return headEnd + Number(length[1]);
}

/** The bytes of an HTTP/1.1 request: its head (with `host`, and a length when there is a body). */
export function requestBytes(
  method: string,
  path: string,
  host: string,
  headers: Record<string, string>,
  body?: string,
): Uint8Array {
  const payload = new TextEncoder().encode(body ?? "");
  const lines = Object.entries({
    host,
    ...headers,
    ...(body !== undefined && { "content-length": String(payload.length) }),
  }).map(([name, value]) => `${name}: ${value}\r\n`);
  const head = new TextEncoder().encode(`${method} ${path} HTTP/1.1\r\n${lines.join("")}\r\n`);
  const message = new Uint8Array(head.length + payload.length);
  message.set(head);
  message.set(payload, head.length);
  return message;
}

/** Writes every byte of `bytes` to `conn`. */
export async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let written = 0; written < bytes.length;) {
    written += await conn.write(bytes.subarray(written));
  }
}

/** Opens the connection; `send` writes the request and reads one full response. */
export async function rawHttpClient(request: RawRequest): Promise<RawClient> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: request.port });
  conn.setNoDelay(true);
  const { method, path, port, headers, body } = request;
  const message = requestBytes(method, path, `127.0.0.1:${port}`, headers, body);
  let buffer = new Uint8Array(16 * 1024);
  const send = async () => {
    await writeAll(conn, message);
    let filled = 0;
    let total = -1;
    while (total < 0 || filled < total) {
      if (filled === buffer.length) {
        const bigger = new Uint8Array(buffer.length * 2);
        bigger.set(buffer);
        buffer = bigger;
      }
      const read = await conn.read(buffer.subarray(filled));
      if (read === null) throw new Error(`${request.path}: connection closed mid-response`);
      filled += read;
      if (total < 0) total = responseLength(buffer, filled);
    }
  };
  return { send, close: () => conn.close() };
}
