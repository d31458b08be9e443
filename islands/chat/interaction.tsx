/**
 * A pending interaction as a card: an approval of a tool call, an elicitation (a form from its
 * schema, or a link in url mode) or a sampling request. Answering posts to
 * `/api/interactions/:id`; the turn that waits on it then goes on.
 */
import { useSignal } from "@preact/signals";
import { ApiError } from "../api.ts";
import { showValue } from "../format.ts";
import { api, describeError, removePending } from "../state.ts";
import { SchemaForm } from "./schema_form.tsx";
import type { ApprovalAnswer, ElicitationAnswer, Interaction } from "../../wire/interactions.ts";

function samplingText(messages: unknown[]): string {
  return messages.map((message) => {
    const { role, content } = message as { role?: string; content?: unknown };
    const parts = Array.isArray(content) ? content : [content];
    const text = parts.map((part) =>
      (part as { type?: string })?.type === "text"
        ? String((part as { text?: unknown }).text)
        : `[${(part as { type?: string })?.type ?? "content"}]`
    ).join(" ");
    return `${role ?? "?"}: ${text}`;
  }).join("\n");
}

/** The props of {@link InteractionCard}. */
export interface InteractionCardProps {
  interaction: Interaction;
  /** Shown inside the card of its tool call, which already shows the input. */
  inToolCard?: boolean;
}

/** One pending interaction, answerable. */
export function InteractionCard({ interaction, inToolCard = false }: InteractionCardProps) {
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const answer = async (response: ApprovalAnswer | ElicitationAnswer) => {
    busy.value = true;
    error.value = null;
    try {
      await api().interactions.answer(interaction.id, response);
      removePending(interaction.id);
    } catch (failure) {
      busy.value = false;
      error.value = describeError(failure);
      // Already answered elsewhere, or its turn ended: it is no longer pending.
      if (failure instanceof ApiError && [404, 409].includes(failure.status)) {
        setTimeout(() => removePending(interaction.id), 2500);
      }
    }
  };
  const from = interaction.serverId ? ` (${interaction.serverId})` : "";
  let title: string;
  let body;
  switch (interaction.kind) {
    case "approval":
      title = `Run ${interaction.tool}${from}?`;
      body = (
        <>
          {inToolCard
            ? null
            : <pre class="json" aria-label="Tool input">{showValue(interaction.input)}</pre>}
          <div class="actions">
            <button
              type="button"
              class="primary"
              disabled={busy.value}
              onClick={() => answer({ approved: true })}
            >
              Approve
            </button>
            <button
              type="button"
              disabled={busy.value}
              onClick={() => answer({ approved: true, remember: "session" })}
              title="Run this tool without asking until Lass stops"
            >
              Approve for this session
            </button>
            <button
              type="button"
              disabled={busy.value}
              onClick={() => answer({ approved: true, remember: "always" })}
              title="Always run this tool without asking (saved in the config)"
            >
              Always allow
            </button>
            <button
              type="button"
              class="danger"
              disabled={busy.value}
              onClick={() => answer({ approved: false })}
            >
              Deny
            </button>
          </div>
        </>
      );
      break;
    case "elicitation":
      title = `Input requested${from}`;
      body = (
        <>
          <p class="message">{interaction.message}</p>
          {interaction.mode === "url" && interaction.url
            ? (
              <>
                <p>
                  <a href={interaction.url} target="_blank" rel="noopener noreferrer">
                    Open {interaction.url}
                  </a>
                </p>
                <div class="actions">
                  <button
                    type="button"
                    class="primary"
                    disabled={busy.value}
                    onClick={() => answer({ action: "accept" })}
                  >
                    Done
                  </button>
                  <button
                    type="button"
                    disabled={busy.value}
                    onClick={() => answer({ action: "decline" })}
                  >
                    Decline
                  </button>
                  <button
                    type="button"
                    disabled={busy.value}
                    onClick={() => answer({ action: "cancel" })}
                  >
                    Cancel
                  </button>
                </div>
              </>
            )
            : (
              <SchemaForm
                schema={interaction.requestedSchema ?? { type: "object", properties: {} }}
                idPrefix={`form-${interaction.id}`}
                busy={busy.value}
                onAnswer={answer}
              />
            )}
        </>
      );
      break;
    case "sampling":
      title = `Model completion requested${from}`;
      body = (
        <>
          {interaction.systemPrompt
            ? <p class="message">System: {interaction.systemPrompt}</p>
            : null}
          <pre class="json" aria-label="Messages">{samplingText(interaction.messages)}</pre>
          <p class="hint">Up to {interaction.maxTokens} tokens, answered by this chat's model.</p>
          <div class="actions">
            <button
              type="button"
              class="primary"
              disabled={busy.value}
              onClick={() => answer({ approved: true })}
            >
              Allow
            </button>
            <button
              type="button"
              disabled={busy.value}
              onClick={() => answer({ approved: true, remember: "always" })}
              title="Always answer this server's sampling requests (saved in the config)"
            >
              Always allow
            </button>
            <button
              type="button"
              class="danger"
              disabled={busy.value}
              onClick={() => answer({ approved: false })}
            >
              Deny
            </button>
          </div>
        </>
      );
      break;
  }
  return (
    <section
      class={`interaction interaction-${interaction.kind}`}
      aria-label={title}
      data-interaction-id={interaction.id}
    >
      <h3>{title}</h3>
      {body}
      {error.value ? <p class="error" role="alert">{error.value}</p> : null}
    </section>
  );
}
