/**
 * One tool: its description and annotations, a form generated from its input schema (or the
 * arguments as raw JSON), Call (with progress, elapsed time and Cancel while it runs), and the
 * result with its content blocks, structured content, duration and the raw answer.
 */
import { JsonBlock } from "../copy_button.tsx";
import { RichText } from "../rich_text.tsx";
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { takeEdit, waitingEdit } from "./edit_request.ts";
import { CopyAs } from "./copy_as.tsx";
import { initialValue } from "../json_schema.ts";
import { FieldErrors, SchemaFields } from "../schema_fields.tsx";
import { formatDuration } from "../format.ts";
import { ContentBlocks } from "./content.tsx";
import { CallError } from "./panel.tsx";
import { CancelledCall, RunningCall, useToolCall } from "./running_call.tsx";
import type { CallOutcome } from "../tool_servers.ts";
import type { ToolInfo } from "../../wire/tool_servers.ts";
import type { ErrorDetail } from "../../wire/errors.ts";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What the MCP annotation hints say, in words. */
function hintsOf(tool: ToolInfo): [string, string][] {
  const a = tool.annotations ?? {};
  const hints: [string, string][] = [];
  if (a.readOnlyHint === true) hints.push(["read-only", "Does not change its environment"]);
  if (a.readOnlyHint === false) hints.push(["writes", "May change its environment"]);
  if (a.destructiveHint === true && a.readOnlyHint !== true) {
    hints.push(["destructive", "May delete or overwrite"]);
  }
  if (a.idempotentHint === true) hints.push(["idempotent", "Calling it again has no more effect"]);
  if (a.openWorldHint === true) hints.push(["open world", "Talks to the world outside"]);
  if (a.openWorldHint === false) hints.push(["closed world", "Works on a closed domain"]);
  if (tool.disabled) hints.push(["disabled", "Listed in disabledTools: hidden from the model"]);
  else if (!tool.modelVisible) hints.push(["app only", "Only its MCP App may call it"]);
  return hints;
}

/** The 400 details of the call as field errors (`args.a` → `a`). */
function fieldErrorsOf(details: ErrorDetail[]): Record<string, string> {
  return Object.fromEntries(
    details.filter((d) => d.path.startsWith("args.")).map((d) => [d.path.slice(5), d.message]),
  );
}

/** The props of {@link CallResult}. */
export interface CallResultProps {
  outcome: CallOutcome;
  serverId: string;
  /** The region's name: "Result" unless told (History's Run again shows its own). */
  label?: string;
}

/** A tool call's result: its content blocks, structured content, duration and the raw answer. */
export function CallResult({ outcome, serverId, label = "Result" }: CallResultProps) {
  const { result, durationMs } = outcome;
  const failed = result.isError === true;
  return (
    <section class={`call-result${failed ? " is-error" : ""}`} aria-label={label}>
      <header>
        <h3>{failed ? "Tool error" : "Result"}</h3>
        <span class={`badge badge-${failed ? "error" : "ok"}`}>{failed ? "isError" : "ok"}</span>
        <span class="duration" title="How long the call took">{formatDuration(durationMs)}</span>
      </header>
      <ContentBlocks blocks={result.content ?? []} serverId={serverId} />
      {result.structuredContent !== undefined
        ? (
          <>
            <h4>
              Structured content
              {outcome.outputSchema === "passed"
                ? (
                  <span
                    class="output-check is-passed"
                    title="Lass checked it against the tool's output schema"
                  >
                    <span aria-hidden="true">✓</span> matches the output schema
                  </span>
                )
                : null}
            </h4>
            <JsonBlock value={result.structuredContent} class="structured" />
          </>
        )
        : null}
      <details class="raw">
        <summary>Raw result</summary>
        <JsonBlock value={outcome} />
      </details>
    </section>
  );
}

/** The props of {@link ToolPanel}. */
export interface ToolPanelProps {
  serverId: string;
  tool: ToolInfo;
}

/** One tool with its form and its last result. */
export function ToolPanel({ serverId, tool }: ToolPanelProps) {
  const schema = tool.inputSchema;
  const args = useSignal((initialValue(schema) ?? {}) as Record<string, unknown>);
  /** The arguments as JSON text while in raw mode, else `null`. */
  const raw = useSignal<string | null>(null);
  const rawError = useSignal<string | null>(null);
  const call = useToolCall(serverId, tool.name);
  /** The timeout field's text, in seconds; empty means the record's deadline. */
  const timeout = useSignal("");
  const idPrefix = `tool-${serverId}-${tool.name}`.replace(/[^\w-]/g, "_");
  const hasFields = Object.keys((schema.properties ?? {}) as object).length > 0;
  const panel = useRef<HTMLElement>(null);
  // A past call of this tool from History ("Edit and send"): its arguments fill the form.
  const edit = waitingEdit(serverId, "tool");
  useEffect(() => {
    if (!edit || edit.name !== tool.name) return;
    args.value = edit.args;
    raw.value = null;
    takeEdit();
    panel.current?.scrollIntoView({ block: "start" });
    panel.current?.querySelector<HTMLElement>(".tool-form input, .tool-form textarea")?.focus();
  }, [edit]);

  const parseRaw = (): Record<string, unknown> | null => {
    try {
      const parsed = JSON.parse(raw.peek() || "{}");
      if (!isRecord(parsed)) throw new Error("the arguments must be a JSON object");
      rawError.value = null;
      return parsed;
    } catch (error) {
      rawError.value = `Not valid arguments: ${(error as Error).message}`;
      return null;
    }
  };
  const toggleRaw = () => {
    if (raw.peek() === null) {
      raw.value = JSON.stringify(args.peek(), null, 2);
      rawError.value = null;
      return;
    }
    const parsed = parseRaw();
    if (parsed) {
      args.value = parsed;
      raw.value = null;
    }
  };
  const submit = (event: Event) => {
    event.preventDefault();
    const body = raw.peek() === null ? args.peek() : parseRaw();
    const seconds = Number(timeout.peek());
    const timeoutMs = timeout.peek().trim() !== "" && seconds > 0
      ? Math.round(seconds * 1000)
      : undefined;
    if (body) void call.start(body, timeoutMs);
  };

  const state = call.state.value;
  const errors = state.state === "failed" ? fieldErrorsOf(state.details) : {};
  const rawId = `${idPrefix}-raw`;
  return (
    <article ref={panel} class="tool-panel" aria-label={`Tool ${tool.name}`}>
      <header class="item-head">
        <h2>{tool.title ?? tool.name}</h2>
        {tool.title ? <code>{tool.name}</code> : null}
      </header>
      {tool.description
        ? (
          <div class="item-description">
            <RichText text={tool.description} />
          </div>
        )
        : null}
      <p class="hints">
        {hintsOf(tool).map(([label, title]) => (
          <span key={label} class="badge" title={title}>{label}</span>
        ))}
        <span class="hint">
          The model calls it <code>{tool.modelName}</code>
        </span>
      </p>
      <form class="tool-form" onSubmit={submit} aria-label={`Arguments of ${tool.name}`}>
        <div class="form-head">
          <h3>Arguments</h3>
          <button type="button" aria-pressed={raw.value !== null} onClick={toggleRaw}>
            Raw JSON
          </button>
        </div>
        {raw.value !== null
          ? (
            <div class={`field${rawError.value ? " invalid" : ""}`}>
              <label for={rawId}>Arguments (JSON)</label>
              <textarea
                id={rawId}
                class="mono"
                rows={8}
                spellcheck={false}
                value={raw.value}
                aria-invalid={rawError.value ? true : undefined}
                onInput={(event) => raw.value = event.currentTarget.value}
              />
              {rawError.value
                ? <span class="field-error" role="alert">{rawError.value}</span>
                : null}
            </div>
          )
          : hasFields
          ? (
            <FieldErrors.Provider value={errors}>
              <SchemaFields
                schema={schema}
                idPrefix={idPrefix}
                value={args.value}
                onChange={(next) => args.value = next}
              />
            </FieldErrors.Provider>
          )
          : <p class="hint">This tool takes no arguments.</p>}
        <div class="actions">
          <label class="call-timeout" title="The call ends after this, progress or not">
            Timeout (s)
            <input
              type="number"
              min="0.1"
              max="3600"
              step="any"
              inputMode="decimal"
              placeholder="record's"
              value={timeout.value}
              onInput={(event) => timeout.value = event.currentTarget.value}
            />
          </label>
          <button type="submit" class="primary" disabled={state.state === "running"}>
            {state.state === "running" ? "Calling…" : "Call"}
          </button>
        </div>
      </form>
      <CopyAs serverId={serverId} tool={tool.name} args={args.value} />
      {state.state === "running"
        ? (
          <RunningCall
            serverId={serverId}
            tool={tool.name}
            startedAt={state.startedAt}
            progress={state.progress}
            task={state.task}
            onCancel={call.cancel}
          />
        )
        : null}
      {state.state === "cancelled" ? <CancelledCall afterMs={state.afterMs} /> : null}
      {state.state === "done" ? <CallResult outcome={state.value} serverId={serverId} /> : null}
      {state.state === "failed" ? <CallError error={state.error} details={state.details} /> : null}
      <details class="schemas">
        <summary>Schemas</summary>
        <h4>Input schema</h4>
        <JsonBlock value={tool.inputSchema} />
        {tool.outputSchema
          ? (
            <>
              <h4>Output schema</h4>
              <JsonBlock value={tool.outputSchema} />
            </>
          )
          : null}
      </details>
    </article>
  );
}
