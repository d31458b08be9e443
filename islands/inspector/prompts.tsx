/** The Prompts tab: each prompt's arguments as fields, Get, and the messages it returns. */
import { JsonBlock } from "../copy_button.tsx";
import { RichText } from "../rich_text.tsx";
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { takeEdit, waitingEdit } from "./edit_request.ts";
import { ContentBlockView } from "./content.tsx";
import { CompletionInput } from "./completion_input.tsx";
import { Block, CallError, ItemPicker, useCall } from "./panel.tsx";
import { mcpApi, type PromptResult } from "../tool_servers.ts";
import type { ToolServerState } from "../../wire/tool_servers.ts";

type Prompt = ToolServerState["prompts"][number];

function PromptPanel(
  { serverId, prompt, completes }: { serverId: string; prompt: Prompt; completes: boolean },
) {
  const values = useSignal<Record<string, string>>({});
  const [call, run] = useCall<PromptResult>();
  const panel = useRef<HTMLElement>(null);
  // A past request of this prompt from History ("Edit and send"): its arguments fill the form.
  const edit = waitingEdit(serverId, "prompt");
  useEffect(() => {
    if (!edit || edit.name !== prompt.name) return;
    values.value = edit.args;
    takeEdit();
    panel.current?.scrollIntoView({ block: "start" });
    panel.current?.querySelector<HTMLElement>("input, textarea, select")?.focus();
  }, [edit]);
  const idPrefix = `prompt-${serverId}-${prompt.name}`.replace(/[^\w-]/g, "_");
  const submit = (event: Event) => {
    event.preventDefault();
    // Arguments left empty are left out, so the server's own defaults apply.
    const args = Object.fromEntries(Object.entries(values.peek()).filter(([, v]) => v !== ""));
    void run(() => mcpApi.prompt(serverId, prompt.name, args));
  };
  const state = call.value;
  return (
    <article ref={panel} class="prompt-panel" aria-label={`Prompt ${prompt.name}`}>
      <header class="item-head">
        <h2>{prompt.title ?? prompt.name}</h2>
        {prompt.title ? <code>{prompt.name}</code> : null}
      </header>
      {prompt.description
        ? (
          <div class="item-description">
            <RichText text={prompt.description} />
          </div>
        )
        : null}
      <form class="tool-form" onSubmit={submit} aria-label={`Arguments of ${prompt.name}`}>
        <h3>Arguments</h3>
        {(prompt.arguments ?? []).length === 0
          ? <p class="hint">This prompt takes no arguments.</p>
          : null}
        {(prompt.arguments ?? []).map((argument) => {
          const id = `${idPrefix}-${argument.name.replace(/[^\w-]/g, "_")}`;
          return (
            <div key={argument.name} class="field">
              <label for={id}>
                {argument.name}
                {argument.required ? <span class="required" aria-hidden="true">*</span> : null}
              </label>
              {completes
                ? (
                  <CompletionInput
                    serverId={serverId}
                    reference={{ type: "ref/prompt", name: prompt.name }}
                    name={argument.name}
                    id={id}
                    multiline
                    required={argument.required === true}
                    describedBy={argument.description ? `${id}-hint` : undefined}
                    value={values.value[argument.name] ?? ""}
                    context={values.value}
                    onValue={(value) => values.value = { ...values.peek(), [argument.name]: value }}
                  />
                )
                : (
                  <textarea
                    id={id}
                    class="grow"
                    rows={1}
                    required={argument.required === true}
                    aria-describedby={argument.description ? `${id}-hint` : undefined}
                    value={values.value[argument.name] ?? ""}
                    onInput={(event) =>
                      values.value = {
                        ...values.peek(),
                        [argument.name]: event.currentTarget.value,
                      }}
                  />
                )}
              {argument.description
                ? <small id={`${id}-hint`}>{argument.description}</small>
                : null}
            </div>
          );
        })}
        <div class="actions">
          <button type="submit" class="primary" disabled={state.state === "running"}>
            {state.state === "running" ? "Getting…" : "Get prompt"}
          </button>
        </div>
      </form>
      {state.state === "failed" ? <CallError error={state.error} details={state.details} /> : null}
      {state.state === "done"
        ? (
          <Block title="Messages" class="prompt-messages">
            {state.value.description ? <p class="hint">{state.value.description}</p> : null}
            <ol class="messages-list">
              {state.value.messages.map((message, i) => (
                <li key={i} class={`prompt-message role-${message.role}`}>
                  <span class="role">{message.role}</span>
                  <ContentBlockView block={message.content} serverId={serverId} />
                </li>
              ))}
            </ol>
            <details class="raw">
              <summary>Raw result</summary>
              <JsonBlock value={state.value} />
            </details>
          </Block>
        )
        : null}
    </article>
  );
}

/** The prompts of a connected server. */
export function PromptsTab({ state }: { state: ToolServerState }) {
  const selected = useSignal<string | null>(state.prompts[0]?.name ?? null);
  const edit = waitingEdit(state.id, "prompt");
  if (edit && selected.peek() !== edit.name && state.prompts.some((p) => p.name === edit.name)) {
    selected.value = edit.name;
  }
  if (state.prompts.length === 0) return <p class="hint">This server offers no prompts.</p>;
  const prompt = state.prompts.find((candidate) => candidate.name === selected.value) ??
    state.prompts[0];
  return (
    <div class="inspector-split">
      <ItemPicker
        label="Prompts"
        items={state.prompts.map((p) => ({ key: p.name, label: p.name, detail: p.title }))}
        selected={prompt.name}
        onSelect={(name) => selected.value = name}
      />
      <PromptPanel
        key={`${state.id}/${prompt.name}`}
        serverId={state.id}
        prompt={prompt}
        completes={state.capabilities?.completions !== undefined}
      />
    </div>
  );
}
