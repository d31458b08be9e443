/**
 * Holds on a passed-through server: a client's POST whose requests are held is sent on only with
 * what the user forwarded (maybe edited); the replies the user gave in the server's place are
 * answered by Lass, in the answer's own form (JSON, or events before the server's). The server's
 * answers and requests pass the same gate on their way back, and Lass's own messages join a
 * session's GET stream.
 */
import type { HoldPoint } from "./bridge.ts";
import { addableEventStream, isRequest, isResponse, type RpcMessage } from "./messages.ts";
import { type IncomingHold, type PassThroughTarget, sendToServer } from "./pass_through.ts";
import type { ProxySession } from "./registry.ts";

/** A POST after its holds were decided. */
export interface HeldPost {
  /** What still goes to the server (forwarded, edited or not held). */
  send: RpcMessage[];
  /** Answers the user gave in the server's place. */
  replies: RpcMessage[];
  /** Requests the user dropped: nobody answers them. */
  dropped: number;
}

/** Waits for the user's decision on each held request of a POST. */
export async function holdOutgoing(
  messages: RpcMessage[],
  session: ProxySession,
  point: HoldPoint,
): Promise<HeldPost> {
  const outcomes = await Promise.all(
    messages.map(async (message) =>
      point.held(message)
        ? { message, outcome: await point.decide(session, "out", message) }
        : { message, outcome: { action: "forward" as const, message } }
    ),
  );
  const held: HeldPost = { send: [], replies: [], dropped: 0 };
  for (const { message, outcome } of outcomes) {
    if (outcome.action === "forward") held.send.push(outcome.message);
    else {
      // The client's message crossed into Lass, though not to the server.
      session.observe("out", message);
      if (outcome.action === "reply") held.replies.push(outcome.response);
      else held.dropped++;
    }
  }
  return held;
}

/**
 * The answer to a POST none of whose messages went to the server: the replies as JSON, or, when
 * only dropped requests are left, a stream that stays open until the client gives up waiting.
 */
export function answerHeld(held: HeldPost, session: ProxySession): Response {
  for (const reply of held.replies) session.observe("in", reply);
  if (held.replies.length > 0) {
    return Response.json(held.replies.length === 1 ? held.replies[0] : held.replies);
  }
  if (held.dropped > 0) {
    return new Response(new ReadableStream<Uint8Array>({}), {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    });
  }
  return new Response(null, { status: 202 });
}

/** The server's answer with the user's replies added: before its events, or in its JSON batch. */
export async function withReplies(
  response: Response,
  replies: RpcMessage[],
  session: ProxySession,
): Promise<Response> {
  if (replies.length === 0) return response;
  for (const reply of replies) session.observe("in", reply);
  const type = response.headers.get("content-type") ?? "";
  const headers = new Headers(response.headers);
  if (type.startsWith("text/event-stream") && response.body) {
    const first = new TextEncoder().encode(
      replies.map((reply) => `event: message\ndata: ${JSON.stringify(reply)}\n\n`).join(""),
    );
    const rest = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(first),
      pull: async (controller) => {
        const { done, value } = await rest.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => rest.cancel(reason),
    });
    return new Response(body, { status: response.status, headers });
  }
  const text = response.status === 202 ? "" : await response.text();
  let answered: unknown[] = [];
  try {
    const parsed = text === "" ? [] : JSON.parse(text);
    answered = Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    answered = [];
  }
  const all = [...answered, ...replies];
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify(all.length === 1 ? all[0] : all), { status: 200, headers });
}

/** What the gate of a passed-through exchange needs. */
export interface IncomingGateOptions {
  point: HoldPoint;
  session: ProxySession;
  /** The client's messages of the exchange: the answers to its requests pass `point.answer`. */
  asked: RpcMessage[];
  /** The client's headers (its session), for a reply the user gives in the client's place. */
  headers: Headers;
  target: PassThroughTarget;
}

/**
 * The server's messages of one exchange on their way to the client: an answer as the gate shows
 * it (a tool list without the tools pinning holds back), a held request of the server's decided by
 * the user (forwarded, answered in the client's place, or dropped).
 */
export function incomingGate(options: IncomingGateOptions): IncomingHold {
  const { point, session } = options;
  const asked = new Map(
    options.asked.filter(isRequest).map((message) => [message.id, message.method!]),
  );
  return (message) => {
    const method = isResponse(message) ? asked.get(message.id) : undefined;
    if (method) {
      const answer = point.answer(method, message);
      return answer === message ? undefined : Promise.resolve(answer);
    }
    if (!point.held(message)) return undefined;
    return (async () => {
      const outcome = await point.decide(session, "in", message);
      if (outcome.action === "forward") return outcome.message;
      session.observe("in", message);
      if (outcome.action === "reply") {
        session.observe("out", outcome.response);
        await sendToServer(options.headers, outcome.response, options.target).catch(() => {});
      }
      return null;
    })();
  };
}

/**
 * A passed-through session's GET stream (read event by event, see {@link incomingGate}), which
 * carries Lass's own messages to the client too, through `session.notify` while it is open.
 */
export function withLassMessages(response: Response, session: ProxySession): Response {
  const type = response.headers.get("content-type") ?? "";
  if (!response.body || !type.startsWith("text/event-stream")) return response;
  const stream = addableEventStream(response.body, () => {
    if (session.notify === send) session.notify = () => false;
  });
  const send = (message: RpcMessage) => {
    if (!stream.send(message)) return false;
    session.observe("in", message);
    return true;
  };
  session.notify = send;
  return new Response(stream.body, { status: response.status, headers: response.headers });
}
