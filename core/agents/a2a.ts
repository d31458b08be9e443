/** The A2A adapter: one chat turn with a remote A2A agent (v1.0, or v0.3 through the SDK's compat layer). */
import type { Message } from "@a2a-js/sdk";
import type { TurnChunk } from "../chat/types.ts";
import type { AgentProbe } from "../../wire/agents.ts";
import type { EnvLookup } from "../config/env_refs.ts";
import {
  type A2aConnection,
  connectA2a,
  describeA2aError,
  isMethodNotFound,
  userMessage,
} from "./_a2a_client.ts";
import { withResolvedUrl } from "./_agent_url.ts";
import { type A2aExchange, outgoingMessage } from "./_a2a_history.ts";
import { A2aReply } from "./_a2a_reply.ts";
import type { AgentConfig, AgentTurn, AgentTurnResult } from "./types.ts";

/** The text of the connection test. */
export const TEST_MESSAGE = "Hello! This is a connection test from Lass.";

/** How long a non-streaming task may run before the turn gives up. */
const POLL_LIMIT_MS = 10 * 60_000;
const POLL_FIRST_MS = 200;
const POLL_MAX_MS = 2_000;
/** How long a best-effort `cancelTask` after an abort may take. */
const CANCEL_MS = 3_000;

/**
 * Sends the latest user message to the agent and streams its answer as `text` chunks. A turn
 * whose history holds an earlier A2A reply of this agent continues that context (and, when the
 * agent asked for input, that task); the agent keeps its own history, so only the new message goes.
 */
export const runA2aTurn: AgentTurn = async function* (input) {
  const { signal } = input;
  const agent = withResolvedUrl(input.agent, input.env);
  const { parts, ...ids } = outgoingMessage(input.messages, agent.id);
  const connection = await connect(agent, input.env, signal);
  const reply = yield* converse(connection, userMessage(parts, ids), signal);
  const failure = failureOf(reply);
  if (failure) throw new Error(failure);
  if (!reply.text && reply.outcome === "input-required") {
    yield { type: "text", text: reply.add("The agent needs more input.") };
  } else if (!reply.text && reply.outcome === "auth-required") {
    yield { type: "text", text: reply.add("The agent needs authorization to go on.") };
  }
  yield { type: "step", usage: {}, finishReason: "stop" };
  const exchange: A2aExchange = {
    agentId: agent.id,
    contextId: reply.contextId,
    taskId: reply.taskId,
    state: reply.outcome,
  };
  const result: AgentTurnResult = {
    messages: [{
      role: "assistant",
      content: [{ type: "text", text: reply.text }],
      providerOptions: { a2a: { ...exchange } },
    }],
  };
  return result;
};

/**
 * Fetches the card, sends {@link TEST_MESSAGE} and reports the answer; never throws. The first
 * text of the answer is enough: an agent that answers at once and keeps working passes, and its
 * task is then cancelled (best effort), since nobody waits for the rest.
 */
export async function testA2aAgent(
  record: AgentConfig,
  env: EnvLookup,
  options: { timeoutMs: number },
): Promise<AgentProbe> {
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const latencyMs = () => Math.round(performance.now() - started);
  let card: unknown;
  let shownUrl = record.url;
  try {
    const agent = withResolvedUrl(record, env);
    shownUrl = agent.url;
    const connection = await connect(agent, env, controller.signal);
    card = connection.card;
    const reply = new A2aReply();
    const turn = converse(connection, userMessage(TEST_MESSAGE, {}), controller.signal, reply);
    let next = await turn.next();
    while (!next.done && !reply.text) next = await turn.next();
    if (!next.done) {
      await turn.return(reply);
      if (!reply.settled && reply.taskId) await cancelQuietly(connection.client, reply.taskId);
    }
    const failure = failureOf(reply);
    if (failure) return { ok: false, latencyMs: latencyMs(), card, error: failure };
    return { ok: true, latencyMs: latencyMs(), card, text: reply.text };
  } catch (error) {
    const message = controller.signal.aborted
      ? `no answer from ${shownUrl} within ${seconds(options.timeoutMs)}`
      : error instanceof Error
      ? error.message
      : String(error);
    return { ok: false, latencyMs: latencyMs(), error: message, ...(card ? { card } : {}) };
  } finally {
    clearTimeout(timer);
  }
}

async function connect(
  agent: AgentConfig,
  env: EnvLookup,
  signal: AbortSignal,
): Promise<A2aConnection> {
  try {
    return await connectA2a(agent, { env, signal });
  } catch (error) {
    if (signal.aborted) throw abortReason(signal);
    throw error;
  }
}

/**
 * Sends one message and yields the answer's text until the task settles (streamed or polled).
 * A v1.0 agent that answers the first call "method not found" is asked once more in v0.3.
 */
async function* converse(
  connection: A2aConnection,
  message: Message,
  signal: AbortSignal,
  reply = new A2aReply({ resumedTaskId: message.taskId }),
): AsyncGenerator<TurnChunk, A2aReply> {
  try {
    return yield* exchange(connection, message, signal, reply);
  } catch (error) {
    const legacy = !signal.aborted && !reply.taskId && isMethodNotFound((error as Error).cause)
      ? await connection.inLegacy()
      : undefined;
    if (!legacy) throw error;
    return yield* exchange(legacy, message, signal, reply);
  }
}

/** One try of {@link converse} on one connection. */
async function* exchange(
  connection: A2aConnection,
  message: Message,
  signal: AbortSignal,
  reply: A2aReply,
): AsyncGenerator<TurnChunk, A2aReply> {
  const { client } = connection;
  const params = { tenant: "", message, configuration: undefined, metadata: undefined };
  try {
    if (connection.streaming) {
      for await (const event of client.sendMessageStream(params, { signal })) {
        const text = reply.apply(event);
        if (text) yield { type: "text", text };
        // An agent waiting for credentials may keep the stream open; the turn ends here.
        if (reply.interrupted) break;
      }
    } else {
      const configuration = {
        acceptedOutputModes: [],
        taskPushNotificationConfig: undefined,
        returnImmediately: true,
      };
      const result = await client.sendMessage({ ...params, configuration }, { signal });
      const text = "messageId" in result ? reply.applyMessage(result) : reply.applyTask(result);
      if (text) yield { type: "text", text };
    }
    // Without streaming, or when a stream ends before the task does, ask for the task until it settles.
    if (!reply.settled && !reply.taskId) throw new TurnError("the agent ended without an answer");
    const deadline = Date.now() + POLL_LIMIT_MS;
    for (let wait = POLL_FIRST_MS; !reply.settled; wait = Math.min(wait * 1.5, POLL_MAX_MS)) {
      if (Date.now() > deadline) {
        throw new TurnError(`the agent did not finish the task within ${seconds(POLL_LIMIT_MS)}`);
      }
      await sleep(wait, signal);
      const task = await client.getTask({ tenant: "", id: reply.taskId, historyLength: 0 }, {
        signal,
      });
      const text = reply.applyTask(task);
      if (text) yield { type: "text", text };
    }
    return reply;
  } catch (error) {
    if (signal.aborted) throw abortReason(signal);
    if (error instanceof TurnError) throw error;
    throw new Error(describeA2aError(error, endpointOf(connection)), { cause: error });
  } finally {
    if (signal.aborted && reply.taskId && !reply.settled) await cancelQuietly(client, reply.taskId);
  }
}

/** The sentence for a task that did not succeed, if it did not. */
function failureOf(reply: A2aReply): string | undefined {
  const said = reply.failureText ? `: ${reply.failureText}` : "";
  if (reply.outcome === "failed") return `the agent failed the task${said}`;
  if (reply.outcome === "rejected") return `the agent rejected the task${said}`;
  if (reply.outcome === "canceled") return `the agent canceled the task${said}`;
  return undefined;
}

async function cancelQuietly(client: A2aConnection["client"], taskId: string): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), CANCEL_MS);
  try {
    await client.cancelTask({ tenant: "", id: taskId, metadata: undefined }, {
      signal: controller.signal,
    });
  } catch {
    // Best effort: the task may have finished meanwhile, or the agent may not cancel tasks.
  } finally {
    clearTimeout(timer);
  }
}

/** The URL the client talks to, for error messages. */
function endpointOf(connection: A2aConnection): string {
  const { card } = connection;
  const interfaces = Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : [];
  const url = interfaces.find((entry) => typeof entry?.url === "string")?.url ?? card.url;
  return typeof url === "string" ? new URL(url, connection.cardUrl).href : connection.cardUrl;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
    if (signal.aborted) onAbort();
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("the turn was aborted", "AbortError");
}

function seconds(ms: number): string {
  return ms < 1000
    ? `${ms} ms`
    : ms < 120_000
    ? `${Math.round(ms / 1000)} s`
    : `${ms / 60_000} min`;
}

/** A failure of the turn itself, already one sentence. */
class TurnError extends Error {}
