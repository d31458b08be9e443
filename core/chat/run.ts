/** One chat turn as a stream of chunks: checked first, then run by a model or a remote agent. */
import { ToolCallDetails } from "./tool_details.ts";
import { PartialTurn } from "./partial_turn.ts";
import { type ModelMessage, modelMessageSchema } from "ai";
import { clip, detailsFromIssues, LassError } from "../errors.ts";
import type { Service } from "../service.ts";
import type { TurnEnding } from "../../wire/sessions.ts";
import { type Priced, sumPriced } from "../../wire/usage.ts";
import { agentTurn } from "./agent_turn.ts";
import type { ChatChunk, ChatStep } from "../../wire/chat.ts";
import { AGENT_UNPRICED, costAt, pricingOf } from "../llm/cost.ts";
import { modelTurn } from "./model_turn.ts";
import { type ChatBody, resolveChat, type ResolvedChat } from "./request.ts";
import type { ReadyTurn, Turn, TurnOutcome } from "./turn.ts";
import { startTurnTrace, type TurnTrace } from "../telemetry/turn_trace.ts";
import type { TraceSpan } from "../telemetry/types.ts";

/** A checked chat request, ready to run. */
export interface PreparedChat {
  runId: string;
  resolved: ResolvedChat;
  /**
   * Runs the turn, yielding its chunks. Aborting `signal` (or ending the generator early with
   * `return()`) stops the model and the tools.
   */
  run(signal: AbortSignal, options?: ChatRunOptions): AsyncGenerator<ChatChunk>;
}

/** Checks every message against the AI SDK's model-message schema; 400 with the paths otherwise. */
function checkMessages(messages: unknown[]): ModelMessage[] {
  const details = messages.flatMap((message, index) => {
    const parsed = modelMessageSchema.safeParse(message);
    return parsed.success ? [] : detailsFromIssues(parsed.error.issues, `messages.${index}`);
  });
  if (details.length > 0) {
    throw new LassError("invalid-request", "a message is not a valid model message", details);
  }
  return messages as ModelMessage[];
}

/** Options of {@link PreparedChat.run}. */
export interface ChatRunOptions {
  /**
   * The span the turn's span becomes a child of: a compare turn's or an eval case's (see
   * `service.telemetry.startSpan`). Without it a traced turn is a trace of its own.
   */
  parentSpan?: TraceSpan;
}

/**
 * Validates the body against the config before anything streams: 400 for bad messages, 404 for an
 * unknown workspace, model or agent.
 */
export function prepareChat(service: Service, body: ChatBody): PreparedChat {
  const messages = checkMessages(body.messages);
  const resolved = resolveChat(service.config.config, body);
  const runId = crypto.randomUUID();
  return {
    runId,
    resolved,
    run: (signal, options = {}) =>
      service.turns.track(runTurn({
        service,
        body,
        messages,
        resolved,
        runId,
        // Closing the service ends the turn too (saved as aborted before the sessions close).
        signal: AbortSignal.any([signal, service.turns.signal]),
        trace: traceOf(service, { runId, resolved, sessionId: body.sessionId }, options),
      })),
  };
}

/** The trace of a turn when telemetry is on (nothing is loaded or opened while it is off). */
function traceOf(
  service: Service,
  facts: Parameters<typeof startTurnTrace>[1],
  options: ChatRunOptions,
): TurnTrace | undefined {
  if (!options.parentSpan && !service.telemetry.tracing) return undefined;
  return startTurnTrace(
    (name, span) => service.telemetry.startSpan(name, { ...span, parent: options.parentSpan }),
    facts,
  );
}

/**
 * A turn's chunks: `start`, the content chunks, then `finish` (after saving to the session) or
 * `error`. Events follow the run; its pending interactions end with it, however it ends.
 */
async function* runTurn(turn: Turn): AsyncGenerator<ChatChunk> {
  const { service, runId, signal, resolved, trace } = turn;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const sessionId = turn.body.sessionId;
  // The price is looked up while the model starts (the catalog loads on the first turn).
  const pricing = resolved.responder.kind === "model"
    ? pricingOf(resolved.responder.profile)
    : Promise.resolve(AGENT_UNPRICED);
  // What streamed so far, saved with how the turn ended when it does not finish.
  let saved = !sessionId;
  let sessionFields: ReadyTurn["sessionFields"] = {};
  let model: string | undefined;
  const partial = new PartialTurn();
  // The model's or agent's body, once ready: ended with the turn, however the turn ends.
  let body: ReadyTurn["body"] | undefined;
  const toolCalls = new ToolCallDetails();
  const steps: ChatStep[] = [];
  const saveUnfinished = async (ending: TurnEnding) => {
    if (saved || !sessionId) return;
    saved = true;
    // The steps that finished were paid for, however the turn ended.
    const spent = steps.length > 0 ? sumPriced(steps) : undefined;
    await service.sessions.appendTurn(sessionId, {
      workspaceId: resolved.workspace.id,
      ...sessionFields,
      request: turn.messages,
      response: partial.messages(),
      toolCalls: toolCalls.toRecord(),
      ending,
      ...(spent && {
        usage: { ...spent, ...(model && { model }), durationMs: elapsed(), runId },
      }),
    }).catch((error) => {
      service.events.emit("chat.error", {
        runId,
        message: `the unfinished turn could not be saved: ${error.message}`,
        durationMs: elapsed(),
      });
    });
  };
  // Whether `chat.finish` or `chat.error` told the event stream how the turn ended.
  let reported = false;
  const reportAborted = () => {
    reported = true;
    service.events.emit("chat.error", {
      runId,
      message: "the turn was aborted: the client went away",
      aborted: true,
      durationMs: elapsed(),
    });
  };
  const fail = async (error: unknown): Promise<ChatChunk | undefined> => {
    trace?.fail(
      signal.aborted
        ? { type: "aborted", message: "the client went away" }
        : { type: "turn_error", message: error instanceof Error ? error.message : String(error) },
    );
    if (signal.aborted) {
      await saveUnfinished({ aborted: true });
      reportAborted();
      return undefined;
    }
    const message = error instanceof Error ? error.message : String(error);
    await saveUnfinished({ error: message });
    reported = true;
    service.events.emit("chat.error", { runId, message, durationMs: elapsed() });
    return { type: "error", message };
  };
  try {
    let ready: ReadyTurn;
    try {
      ready = resolved.responder.kind === "agent"
        ? await agentTurn(turn, resolved.responder.agent)
        : await modelTurn(turn, resolved.responder.profile);
    } catch (error) {
      const chunk = await fail(error);
      if (chunk) yield chunk;
      return;
    }
    body = ready.body;
    sessionFields = ready.sessionFields;
    model = ready.model;
    service.events.emit("chat.start", {
      runId,
      workspaceId: resolved.workspace.id,
      ...ready.startEvent,
      tools: ready.tools,
      ...(sessionId && { sessionId }),
    });
    yield {
      type: "start",
      runId,
      model: ready.model,
      profileId: ready.profileId,
      tools: ready.tools,
      ...(ready.unavailable?.length && { unavailable: ready.unavailable }),
    };
    let outcome: TurnOutcome;
    let priced: Priced;
    let text = "";
    // Measured before the save, so the session keeps the duration the `finish` chunk shows.
    let durationMs = 0;
    try {
      while (true) {
        const next = await ready.body.next();
        if (next.done) {
          outcome = next.value;
          break;
        }
        let chunk: ChatChunk;
        if (next.value.type === "step") {
          const { usage, finishReason } = next.value;
          const step: ChatStep = { usage, finishReason, ...costAt(await pricing, usage) };
          steps.push(step);
          chunk = { type: "step", ...step };
        } else chunk = next.value;
        if (chunk.type === "text") text += chunk.text;
        else toolCalls.add(chunk);
        partial.add(chunk);
        yield chunk;
      }
      if (signal.aborted) throw signal.reason;
      priced = costAt(await pricing, outcome.usage);
      durationMs = elapsed();
      if (sessionId) {
        saved = true;
        await service.sessions.appendTurn(sessionId, {
          workspaceId: resolved.workspace.id,
          ...ready.sessionFields,
          request: turn.messages,
          response: outcome.messages,
          toolCalls: toolCalls.toRecord(),
          usage: { usage: outcome.usage, ...priced, model: ready.model, durationMs, runId },
        }).catch((error) => {
          throw new Error(`the turn finished but could not be saved: ${error.message}`);
        });
      }
    } catch (error) {
      const chunk = await fail(error);
      if (chunk) yield chunk;
      return;
    }
    trace?.finish(outcome);
    reported = true;
    service.events.emit("chat.finish", {
      runId,
      usage: outcome.usage,
      ...priced,
      durationMs,
      steps: outcome.steps,
      finishReason: outcome.finishReason,
      maxStepsReached: outcome.finishReason === "tool-calls" &&
        outcome.steps >= resolved.workspace.maxSteps,
      text: clip(text, 2000),
      ...(sessionId && { sessionId }),
    });
    yield {
      type: "finish",
      usage: outcome.usage,
      ...priced,
      steps,
      durationMs,
      messages: outcome.messages,
    };
  } finally {
    // A body left at one of its chunks (the client went away before reading it) is ended, so
    // that what it holds (its model admission, its tool runs) is let go.
    await body?.return(undefined as never).catch(() => {});
    // Ended early by the client going away (`return()` at a `yield`): saved and reported as
    // aborted, as when the abort reaches the turn first.
    trace?.fail({ type: "aborted", message: "the client went away" });
    await saveUnfinished({ aborted: true });
    if (!reported) reportAborted();
    service.interactions.rejectRun(runId);
    service.runningCalls.endRun(runId);
  }
}
