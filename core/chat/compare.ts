/**
 * `POST /api/chat/compare`: one chat turn run once per column (a model profile or a remote agent),
 * concurrently, each with the workspace's tools and its own agent loop, streamed as the chunks of
 * `POST /api/chat` with their `column`, then a `compare-summary`.
 */
import { z } from "zod";
import type {
  ChatChunk,
  ChatStep,
  CompareChunk,
  CompareColumnSummary,
  StoredCompare,
} from "../../wire/chat.ts";
import { type PricedUsage, sumPriced } from "../../wire/usage.ts";
import type { Service } from "../service.ts";
import { ChatBodySchema } from "./request.ts";
import { mergeStreams } from "./merge_streams.ts";
import { PartialTurn } from "./partial_turn.ts";
import { prepareChat, type PreparedChat } from "./run.ts";
import { ToolCallDetails } from "./tool_details.ts";

/** The most columns a compare turn has. */
export const MAX_COLUMNS = 4;

/** The body of `POST /api/chat/compare`: a chat body and 2 to 4 columns. */
export const CompareBodySchema = ChatBodySchema.extend({
  columns: z.array(
    z.strictObject({
      llmId: z.string().min(1).optional(),
      agentId: z.string().min(1).optional(),
      label: z.string().trim().min(1).max(80).optional(),
    }).refine((column) => !(column.llmId && column.agentId), {
      message: "a column has a model (llmId) or an agent (agentId), not both",
    }),
  ).min(2).max(MAX_COLUMNS),
});

/** A parsed compare body. */
export type CompareBody = z.output<typeof CompareBodySchema>;

/** A checked compare request, ready to run. */
export interface PreparedCompare {
  compareId: string;
  /** Each column's run id, in column order (a tool call is cancelled by its column's run). */
  runIds: string[];
  /** Runs the columns, yielding their chunks and then the summary; aborting `signal` stops all. */
  run(signal: AbortSignal): AsyncGenerator<CompareChunk>;
}

/** What one column streamed, for its summary and the session. */
class ColumnState {
  readonly partial = new PartialTurn();
  readonly calls = new ToolCallDetails();
  /** The `finish` chunk's usage and cost. */
  priced?: PricedUsage;
  /** The steps that finished (for a column that did not: what it spent). */
  readonly stepsDone: ChatStep[] = [];
  toolCalls = 0;
  steps = 0;
  ms?: number;
  error?: string;
  messages?: unknown[];

  constructor(readonly label: string, readonly who: { llmId?: string; agentId?: string }) {}

  add(chunk: ChatChunk, elapsed: number): void {
    this.partial.add(chunk);
    this.calls.add(chunk);
    if (chunk.type === "tool-call") this.toolCalls++;
    else if (chunk.type === "step") {
      this.steps++;
      const { type: _, ...step } = chunk;
      this.stepsDone.push(step);
    } else if (chunk.type === "finish") {
      const { usage, cost, costUnknown } = chunk;
      this.priced = { usage, cost, ...(costUnknown !== undefined && { costUnknown }) };
      this.messages = chunk.messages;
      this.ms = chunk.durationMs;
    } else if (chunk.type === "error") {
      this.error = chunk.message;
      this.ms = elapsed;
    }
  }

  summary(column: number, elapsed: number): CompareColumnSummary {
    // A column that did not finish spent what its finished steps did (nothing without one).
    const priced = this.priced ??
      (this.stepsDone.length > 0
        ? sumPriced(this.stepsDone)
        : { usage: {}, cost: null, costUnknown: "the column finished no step" });
    return {
      column,
      label: this.label,
      ...this.who,
      ms: this.ms ?? elapsed,
      usage: priced.usage,
      cost: priced.cost,
      ...(priced.costUnknown !== undefined && { costUnknown: priced.costUnknown }),
      toolCalls: this.toolCalls,
      steps: Math.max(this.steps, this.messages ? 1 : 0),
      ...(this.error !== undefined && { error: this.error }),
      ...(this.messages === undefined && this.error === undefined && {
        error: "the turn was aborted",
      }),
    };
  }
}

/**
 * Checks the body and every column against the config before anything streams (400 for bad
 * messages, 404 for an unknown workspace, model or agent, naming the column).
 */
export function prepareCompare(service: Service, body: CompareBody): PreparedCompare {
  const { columns, sessionId, ...chat } = body;
  const prepared: PreparedChat[] = columns.map((column, index) => {
    try {
      // A column names its own model or agent; the other comes from the workspace.
      return prepareChat(service, {
        ...chat,
        llmId: column.llmId ?? (column.agentId ? undefined : chat.llmId),
        agentId: column.agentId ?? (column.llmId ? undefined : chat.agentId),
      });
    } catch (error) {
      if (error instanceof Error) error.message = `column ${index + 1}: ${error.message}`;
      throw error;
    }
  });
  const states = prepared.map((chat, index) => {
    const { responder } = chat.resolved;
    const who = responder.kind === "agent"
      ? { agentId: responder.agent.id }
      : { llmId: responder.profile.id };
    return new ColumnState(columns[index].label ?? who.llmId ?? who.agentId!, who);
  });
  const compareId = crypto.randomUUID();
  return {
    compareId,
    runIds: prepared.map((chat) => chat.runId),
    run: (signal) =>
      runCompare(service, { compareId, sessionId, chat: body, prepared, states, signal }),
  };
}

interface CompareRun {
  compareId: string;
  sessionId?: string;
  chat: CompareBody;
  prepared: PreparedChat[];
  states: ColumnState[];
  signal: AbortSignal;
}

async function* runCompare(service: Service, run: CompareRun): AsyncGenerator<CompareChunk> {
  const { compareId, prepared, states } = run;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const labels = prepared.map((chat, index) => ({
    runId: chat.runId,
    column: { index, label: states[index].label },
  }));
  for (const { runId, column } of labels) service.interactions.labelRun(runId, column);
  service.events.emit("chat.compare", {
    compareId,
    columns: states.map((state, index) => ({
      column: index,
      label: state.label,
      runId: prepared[index].runId,
      ...state.who,
    })),
    ...(run.sessionId && { sessionId: run.sessionId }),
  });
  let summary: CompareColumnSummary[] | undefined;
  // With telemetry on the compare turn is one trace: each column's turn is a child of its span.
  const span = service.telemetry.startSpan("compare", {
    attributes: { "lass.compare.id": compareId, "lass.compare.columns": prepared.length },
  });
  try {
    const streams = prepared.map((chat) => chat.run(run.signal, { parentSpan: span }));
    for await (const [column, chunk] of mergeStreams(streams)) {
      states[column].add(chunk, elapsed());
      yield { ...chunk, column } as CompareChunk;
    }
    summary = states.map((state, index) => state.summary(index, elapsed()));
    const messageIndex = run.sessionId ? await saveCompare(service, run, summary) : undefined;
    yield {
      type: "compare-summary",
      compareId,
      columns: summary,
      ...(messageIndex !== undefined && { messageIndex }),
    };
  } finally {
    span?.end(summary ? undefined : { type: "aborted", message: "the client went away" });
    for (const { runId } of labels) service.interactions.labelRun(runId, undefined);
    // Ended before the summary (the client went away): what each column streamed is kept.
    if (!summary && run.sessionId) {
      await saveCompare(
        service,
        run,
        states.map((state, index) => state.summary(index, elapsed())),
      ).catch(() => {});
    }
  }
}

/**
 * Appends the compare turn to the session: the conversation goes on with the first column that
 * finished (the user may pick another); every column's answer is kept in `meta.compares`.
 * Resolves to the index of the turn's user message in the session.
 */
async function saveCompare(
  service: Service,
  run: CompareRun,
  summary: CompareColumnSummary[],
): Promise<number> {
  const { states, chat } = run;
  const finished = states.findIndex((state) => state.messages !== undefined);
  const picked = Math.max(finished, 0);
  const compare: StoredCompare = {
    compareId: run.compareId,
    picked,
    columns: states.map((state, index) => ({
      ...summary[index],
      messages: state.messages ?? state.partial.messages(),
      calls: state.calls.toRecord(),
    })),
  };
  const pickedState = states[picked];
  const response = compare.columns[picked].messages;
  const session = await service.sessions.appendTurn(run.sessionId!, {
    workspaceId: run.prepared[0].resolved.workspace.id,
    ...pickedState.who,
    request: chat.messages,
    response,
    toolCalls: compare.columns[picked].calls,
    compare,
    ...(finished < 0 && {
      ending: run.signal.aborted
        ? { aborted: true as const }
        : { error: `no column finished: ${pickedState.error ?? "aborted"}` },
    }),
  });
  return session.messages.length - response.length - 1;
}
