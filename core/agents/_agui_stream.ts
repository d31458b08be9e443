/** One AG-UI run over HTTP as an async stream of checked events (the `@ag-ui/client` transport). */
import {
  CompatibilityBoundary,
  enforceEvents,
  type Event,
  HttpAgent,
  type RunAgentInput,
  transformChunks,
  verifyEvents,
} from "@ag-ui/client";
import { resolveEnvRef } from "../config/env_refs.ts";
import { clip, isNetworkFailure } from "../errors.ts";
import type { AgentTurnInput } from "./types.ts";

/** What a run needs to reach its agent. */
export type AgentTarget = Pick<AgentTurnInput, "agent" | "env">;

/**
 * The events of one run, after the client's own pipeline: legacy events upgraded, unknown ones
 * dropped, `*_CHUNK` events expanded into start/content/end, and the order verified. Ends quietly
 * (the HTTP request cancelled) when `signal` aborts or the consumer stops early; throws an `Error`
 * with one sentence for an HTTP error, an unreachable agent or a broken stream.
 */
export async function* runEvents(
  target: AgentTarget,
  run: { input: RunAgentInput; signal: AbortSignal },
): AsyncGenerator<Event> {
  const { agent, env } = target;
  const { input, signal } = run;
  const request = new AbortController();
  const abort = () => request.abort(signal.reason);
  signal.addEventListener("abort", abort, { once: true });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(agent.headers ?? {})) {
    headers[name] = resolveEnvRef(value, env);
  }
  // `HttpAgent.run` is the transport alone: no subscribers, no console output on failure.
  const client = new HttpAgent({
    url: agent.url,
    headers,
    fetch: (url, init) => fetch(url, { ...init, signal: request.signal }),
  });
  const events = new CompatibilityBoundary().run(input, client).pipe(
    enforceEvents(),
    transformChunks(),
    verifyEvents(),
  );
  const queue: Event[] = [];
  let ended = false;
  let failure: { error: unknown } | undefined;
  let wake = () => {};
  const subscription = events.subscribe({
    next: (event) => {
      queue.push(event as Event);
      wake();
    },
    error: (error) => {
      failure = { error };
      wake();
    },
    complete: () => {
      ended = true;
      wake();
    },
  });
  const onAbort = () => wake();
  signal.addEventListener("abort", onAbort);
  try {
    while (!signal.aborted) {
      const event = queue.shift();
      if (event) {
        yield event;
        continue;
      }
      if (failure) throw new Error(describeFailure(agent, failure.error));
      if (ended) return;
      await new Promise<void>((resolve) => wake = resolve);
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    signal.removeEventListener("abort", abort);
    subscription.unsubscribe();
    request.abort();
  }
}

/** One sentence for a failed run: the HTTP status and the agent's words, or why it failed. */
function describeFailure(agent: AgentTarget["agent"], error: unknown): string {
  const who = `the AG-UI agent ${agent.id}`;
  const { status, payload, message } = error as {
    status?: number;
    payload?: unknown;
    message?: string;
  };
  if (typeof status === "number") {
    const said = payloadText(payload);
    return `${who} answered HTTP ${status}${said ? `: ${clip(said, 300)}` : ""}`;
  }
  if (isNetworkFailure(error)) {
    const cause = (error as { cause?: Error }).cause?.message ?? message ?? String(error);
    return `${who} could not be reached at ${agent.url}: ${clip(cause, 300)}`;
  }
  const issues = (error as { issues?: { path?: PropertyKey[]; message: string }[] }).issues;
  const why = Array.isArray(issues)
    ? issues.map((issue) => `${issue.path?.map(String).join(".") || "event"}: ${issue.message}`)
      .join("; ")
    : message ?? String(error);
  return `${who} sent a stream Lass cannot read: ${clip(why, 300)}`;
}

/** The readable part of an error body: a JSON error's message, or the text. */
function payloadText(payload: unknown): string {
  if (typeof payload === "string") {
    const text = payload.trim();
    try {
      payload = JSON.parse(text);
    } catch {
      return text;
    }
  }
  const body = payload as {
    error?: { message?: unknown } | string;
    message?: unknown;
    detail?: unknown;
  };
  const candidates = [
    typeof body?.error === "object" ? body.error?.message : body?.error,
    body?.message,
    body?.detail,
  ];
  const found = candidates.find((value) => typeof value === "string");
  return typeof found === "string" ? found : JSON.stringify(payload) ?? "";
}
