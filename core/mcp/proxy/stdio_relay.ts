/**
 * The proxy over stdio: newline-delimited JSON-RPC from a client's pipe goes to a tool server's
 * transport, and what the server sends goes back as lines, unchanged but for what a gate (pinning's
 * `block`) changes. Nothing but MCP messages is written to the output. A request that is held waits
 * for its decision on the side (the messages after it go on) and is then sent, answered in the
 * other side's place, or dropped.
 */
import type { Transport } from "@modelcontextprotocol/client";
import type { HoldOutcome } from "./holds.ts";
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
  /**
   * The decision on a held request (`out`: the client's, `in`: the server's), or `undefined` at
   * once when the message is not held.
   */
  hold?(dir: "out" | "in", message: RpcMessage): Promise<HoldOutcome> | undefined;
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
  /** The server's message as the client gets it: an answer through the gate. */
  const gated = (message: RpcMessage): RpcMessage => {
    const method = gate && isResponse(message) ? asked.get(message.id) : undefined;
    if (method === undefined) return message;
    asked.delete(message.id);
    return gate!.answer(method, message);
  };
  // A refusal of the gate comes first, also for a held request forwarded edited.
  const toServer = async (message: unknown) => {
    io.observe("out", message);
    const refusal = gate?.refusal(message as RpcMessage);
    if (refusal) return toClient(refusal);
    if (gate && isRequest(message as RpcMessage)) {
      asked.set((message as RpcMessage).id, (message as RpcMessage).method!);
    }
    await upstream.send(message as never).catch((error) =>
      io.warn(`could not relay to the tool server: ${(error as Error).message}`)
    );
  };
  // A held message is seen in the trace as it went on: edited, or as it came with the user's reply.
  const decided = async (dir: "out" | "in", message: RpcMessage, waiting: Promise<HoldOutcome>) => {
    const outcome = await waiting.catch((error): HoldOutcome => {
      io.warn(`a held ${message.method} goes on as it came: ${(error as Error).message}`);
      return { action: "forward", message };
    });
    const [send, answer] = dir === "out" ? [toServer, toClient] : [toClient, toServer];
    if (outcome.action === "forward") return await send(outcome.message);
    io.observe(dir, message);
    if (outcome.action === "reply") await answer(outcome.response);
  };
  upstream.onmessage = (message) => {
    const waiting = io.hold?.("in", message as RpcMessage);
    if (waiting) void decided("in", message as RpcMessage, waiting);
    else toClient(gated(message as RpcMessage));
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
      const refused = gate?.refusal(message as RpcMessage) !== undefined;
      const waiting = refused ? undefined : io.hold?.("out", message as RpcMessage);
      if (waiting) void decided("out", message as RpcMessage, waiting);
      else await toServer(message);
    }
    return "client" as const;
  })();
  const who = await Promise.race([reading, ended]);
  unwatch?.();
  await writing;
  return who;
}

/** The lines of a byte stream (UTF-8, `\n` or `\r\n`), the last one even without a newline. */
export async function* lines(input: ReadableStream<Uint8Array>): AsyncGenerator<string> {
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
