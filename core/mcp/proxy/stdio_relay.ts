/**
 * The proxy over stdio: newline-delimited JSON-RPC from a client's pipe goes to a tool server's
 * transport, and what the server sends goes back as lines, unchanged but for what a gate (pinning's
 * `block`) changes. Nothing but MCP messages is written to the output.
 */
import type { Transport } from "@modelcontextprotocol/client";
import { isRequest, isResponse, type RpcMessage } from "./messages.ts";

/** What Lass changes on the way: answers it gives itself, answers it shows changed, its own news. */
export interface StdioGate {
  /** Lass's answer to a client's message that must not reach the server, if it is one. */
  refusal(message: RpcMessage): RpcMessage | undefined;
  /** The server's answer to a client's request of `method`, as the client gets it. */
  answer(method: string, response: RpcMessage): RpcMessage;
  /** Calls `send` with Lass's own messages for the client until the returned function is called. */
  watch(send: (message: RpcMessage) => void): () => void;
}

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
  gate?: StdioGate;
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
  const toClient = (message: unknown) => {
    io.observe("in", message);
    const line = JSON.stringify(message);
    writing = writing.then(() => io.write(line)).catch(() => {});
  };
  const gate = io.gate;
  /** The methods of the client's requests the server has not answered, by id (with a gate). */
  const asked = new Map<unknown, string>();
  upstream.onmessage = (message) => {
    const rpc = message as RpcMessage;
    const method = gate && isResponse(rpc) ? asked.get(rpc.id) : undefined;
    if (method === undefined) return toClient(message);
    asked.delete(rpc.id);
    toClient(gate!.answer(method, rpc));
  };
  upstream.onclose = () => serverEnded();
  upstream.onerror = (error) => io.warn(`the tool server's transport: ${error.message}`);
  await upstream.start();
  const unwatch = gate?.watch(toClient);
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
      const refusal = gate?.refusal(message as RpcMessage);
      if (refusal) {
        toClient(refusal);
        continue;
      }
      if (gate && isRequest(message as RpcMessage)) {
        asked.set((message as RpcMessage).id, (message as RpcMessage).method!);
      }
      await upstream.send(message as never).catch((error) =>
        io.warn(`could not relay to the tool server: ${(error as Error).message}`)
      );
    }
    return "client" as const;
  })();
  const who = await Promise.race([reading, ended]);
  unwatch?.();
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
