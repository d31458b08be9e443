/**
 * A card per tool call: server, tool, input, result or error, duration, and the raw exchange;
 * while it runs, its progress, the elapsed time and Cancel.
 */
import { CancelButton, Elapsed, ProgressReport, TaskBadge } from "../call_progress.tsx";
import { formatDuration, showValue } from "../format.ts";
import { api } from "../state.ts";
import { ToolUiView } from "../genui/render.tsx";
import { InteractionCard } from "./interaction.tsx";
import type { ToolCallView, ToolProgressView } from "./model.ts";
import type { Interaction } from "../../wire/interactions.ts";

const SOURCE_LABELS: Record<string, string> = {
  ui: "generative UI",
  skills: "skills",
  agent: "agent",
};

/** The props of {@link ToolCard}. */
export interface ToolCardProps {
  call: ToolCallView;
  /** Pending interactions that belong to this call (its approval, a form its server asks for). */
  interactions: Interaction[];
  /** Whether the turn still streams: a call without a result in an ended turn never got one. */
  streaming: boolean;
  /** The run of the turn, when known. */
  runId?: string;
}

/** Sources whose calls answer at once: they cannot be cancelled. */
const LOCAL_SOURCES = new Set(["ui", "skills", "agent", "unknown"]);

/** Asks the server to cancel one running call of a run. */
async function cancelCall(runId: string, callId: string): Promise<void> {
  await api().json(
    "POST",
    `/api/chat/runs/${encodeURIComponent(runId)}/tool-calls/${encodeURIComponent(callId)}/cancel`,
    {},
  );
}

/**
 * How the call is getting on while it runs: the status of the MCP task it runs as, a progress
 * bar when the server counts (else the count), the latest message, the elapsed time and Cancel.
 * Once the call ended, only the task's id.
 */
function CallProgress(
  { call, view, running, runId }: {
    call: ToolCallView;
    view: ToolProgressView | undefined;
    running: boolean;
    runId?: string;
  },
) {
  const task = view?.task;
  if (!running) {
    return task
      ? (
        <p class="tool-progress hint">
          Ran as MCP task <code>{task.taskId}</code>
        </p>
      )
      : null;
  }
  const cancellable = runId !== undefined && call.source !== "" &&
    !LOCAL_SOURCES.has(call.source);
  if (!view && call.startedAt === undefined && !cancellable) return null;
  return (
    <div class="tool-progress" role="status" aria-live="polite">
      {task ? <TaskBadge {...task} /> : null}
      {view ? <ProgressReport {...view} /> : null}
      {call.startedAt !== undefined ? <Elapsed since={call.startedAt} /> : null}
      {cancellable
        ? (
          <CancelButton
            label={`Cancel ${call.tool} call`}
            onCancel={() => cancelCall(runId!, call.id)}
          />
        )
        : null}
    </div>
  );
}

/** One tool call. */
export function ToolCard({ call, interactions, streaming, runId }: ToolCardProps) {
  const result = call.result.value;
  const progress = call.progress?.value;
  const status = result
    ? (result.ending ?? (result.isError ? "error" : "ok"))
    : streaming
    ? "running"
    : "ended";
  const source = SOURCE_LABELS[call.source] ?? call.source;
  const statusText = status === "running"
    ? (interactions.length > 0 || progress?.task?.status === "input_required"
      ? "waiting for you"
      : "running…")
    : status === "error"
    ? "failed"
    : status === "ended"
    ? "no result"
    : status === "ok"
    ? "done"
    : status;
  return (
    <section
      class={`tool-card tool-${status}`}
      aria-label={`Tool call ${call.tool}${source ? ` on ${source}` : ""}`}
      data-tool-call-id={call.id}
    >
      <header>
        {source ? <span class="tool-source">{source}</span> : null}
        {source ? <span class="sep" aria-hidden="true">›</span> : null}
        <strong class="tool-name">{call.tool}</strong>
        <span class={`badge badge-${status}`}>{statusText}</span>
        {result?.durationMs !== undefined
          ? <span class="duration">{formatDuration(result.durationMs)}</span>
          : null}
      </header>
      <CallProgress
        call={call}
        view={progress}
        running={status === "running"}
        runId={runId}
      />
      <div class="tool-io">
        <div>
          <h4>Input</h4>
          <pre class="json">{showValue(call.input)}</pre>
        </div>
        {result
          ? (
            <div>
              <h4>{result.isError && !result.ending ? "Error" : "Result"}</h4>
              <pre class={result.isError && !result.ending ? "json error" : "json"}>
                {showValue(result.output)}
              </pre>
            </div>
          )
          : null}
      </div>
      {result?.ui ? <ToolUiView ui={result.ui} call={call} result={result} runId={runId} /> : null}
      {interactions.map((interaction) => (
        <InteractionCard key={interaction.id} interaction={interaction} inToolCard />
      ))}
      <details class="raw">
        <summary>Raw</summary>
        <pre class="json">{showValue({
          call: { id: call.id, name: call.name, input: call.input },
          ...(result && { result: result.raw ?? result.output }),
        })}</pre>
      </details>
    </section>
  );
}
