/**
 * The proxy over stdio: newline-delimited JSON-RPC from a client's pipe goes to a tool server's
 * transport, and what the server sends goes back as lines, unchanged. Nothing but MCP messages is
 * written to the output.
 */
import type { Transport } from "@modelcontextprotocol/client";

/** Where the relay reads and writes, and what it reports. */
export interface StdioRelayIo {
  /** The client's messages, one JSON text per line. */
  input: ReadableStream<Uint8Array>;
  /** Writes one line to the client. */
  write(line: string): Promise<void>;
  /** A message crossed: `out` client → server, `in` server → client. */
  observe(dir: "out" | "in", message: unknown): void;
  /** A line that is not JSON-RPC (said on stderr, never on the output). */
  warn(message: string): void;
}

/**
 * Relays until the client's input ends (then the server's transport is closed) or the server's
 * transport closes; resolves with who ended it.
 */
export async function relayStdio(
  upstream: Transport,
  io: StdioRelayIo,
): Promise<"client" | "server"> {
  let serverEnded!: () => void;
  const ended = new Promise<"server">((resolve) => serverEnded = () => resolve("server"));
  // Lines to the client are written one after the other, in the order the server sent them.
  let writing = Promise.resolve();
  upstream.onmessage = (message) => {
    io.observe("in", message);
    const line = JSON.stringify(message);
    writing = writing.then(() => io.write(line)).catch(() => {});
  };
  upstream.onclose = () => serverEnded();
  upstream.onerror = (error) => io.warn(`the tool server's transport: ${error.message}`);
  await upstream.start();
  const reading = (async () => {
    for await (const line of lines(io.input)) {
      if (line.trim() === "") continue;
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        io.warn(`not a JSON-RPC message, not relayed: ${line.slice(0, 200)}`);
        continue;
      }
      io.observe("out", message);
      await upstream.send(message as never).catch((error) =>
        io.warn(`could not relay to the tool server: ${(error as Error).message}`)
      );
    }
    return "client" as const;
  })();
  const who = await Promise.race([reading, ended]);
  await writing;
  return who;
}

/** The lines of a byte stream (UTF-8, `\n` or `\r\n`), the last one even without a newline. */
async function* lines(input: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of input) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n")) >= 0) {
      yield buffer.slice(0, end).replace(/\r$/, "");
      buffer = buffer.slice(end + 1);
    }
  }
  buffer += decoder.decode();
  if (buffer !== "") yield buffer;
}
