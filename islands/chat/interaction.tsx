/**
 * A pending interaction as a card: an approval of a tool call, an elicitation (a form from its
 * schema, or a link in url mode), a sampling request, or a request the proxy holds. Answering posts to
 * `/api/interactions/:id`; the turn that waits on it then goes on.
 */
import { useSignal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { ApiError } from "../api.ts";
import { showValue } from "../format.ts";
import { api, describeError, removePending } from "../state.ts";
import { CARD_CONTROLS, closeDrawer, focusCard, typing } from "../drawer.ts";
import { DECLINE_TITLE, DISMISS_TITLE, SchemaForm } from "./schema_form.tsx";
import { ProxyHoldBody } from "./proxy_hold.tsx";
import type {
  ApprovalAnswer,
  ElicitationAnswer,
  Interaction,
  ProxyHoldAnswer,
  SamplingAnswer,
} from "../../wire/interactions.ts";

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

/** What an interaction card can answer. */
type Answer = ApprovalAnswer | SamplingAnswer | ElicitationAnswer | ProxyHoldAnswer;

/** One answer button of an interaction card. */
interface Choice {
  label: string;
  response: Answer;
  title?: string;
  primary?: boolean;
  danger?: boolean;
}

/** A row of answer buttons, all disabled while an answer is on its way. */
function Choices(
  { choices, busy, answer }: {
    choices: Choice[];
    busy: boolean;
    answer: (response: Choice["response"]) => void;
  },
) {
  return (
    <div class="actions">
      {choices.map((choice) => (
        <button
          key={choice.label}
          type="button"
          class={choice.primary ? "primary" : choice.danger ? "danger" : undefined}
          disabled={busy}
          title={choice.title}
          onClick={() => answer(choice.response)}
        >
          {choice.label}
        </button>
      ))}
    </div>
  );
}

/** A sampling request answered by hand: the reply the user types goes back as the completion. */
function TypedReply(
  { id, busy, answer }: { id: string; busy: boolean; answer: (response: Answer) => void },
) {
  const text = useSignal("");
  const fieldId = `reply-${id}`;
  const submit = (event: Event) => {
    event.preventDefault();
    if (text.peek().trim() !== "") answer({ approved: true, text: text.peek() });
  };
  return (
    <form class="typed-reply" onSubmit={submit}>
      <label for={fieldId}>Your reply</label>
      <textarea
        id={fieldId}
        rows={3}
        value={text.value}
        disabled={busy}
        onInput={(event) => text.value = event.currentTarget.value}
      />
      <div class="actions">
        <button type="submit" disabled={busy || text.value.trim() === ""}>Send my reply</button>
      </div>
    </form>
  );
}

const CONTROLS = CARD_CONTROLS;

/**
 * Requests whose card took the focus once already: a card drawn again does not take it again,
 * unless the card that went held it (see `refocus`).
 */
const focused = new Set<string>();

/**
 * Gives the focus to the page's card of request `id` when the focus was lost (it is on the body)
 * and no card of that request took it since.
 */
function refocus(id: string): void {
  const active = document.activeElement;
  if (focused.has(id) || (active && active !== document.body)) return;
  const again = document.querySelector(
    `#page section.interaction[data-interaction-id="${CSS.escape(id)}"]`,
  );
  if (again && focusCard(again)) focused.add(id);
}

/**
 * Where the keyboard goes when a card leaves the page: the next waiting card in the same place
 * (else the one before), else the message box, else the page. Chosen as the card is answered.
 */
function nextFocus(card: HTMLElement | null): HTMLElement | null {
  if (!card) return null;
  const place = card.closest(".messages, .waiting") ?? document.body;
  const cards = [...place.querySelectorAll<HTMLElement>("section.interaction")];
  const index = cards.indexOf(card);
  const others = [...cards.slice(index + 1), ...cards.slice(0, Math.max(index, 0)).reverse()];
  for (const other of others) {
    const control = other === card ? null : other.querySelector<HTMLElement>(CONTROLS);
    if (control) return control;
  }
  return document.getElementById("composer") ?? document.getElementById("page");
}

/**
 * Moves the focus to `next` once the answered `card` is gone (it may have left already, when
 * the event stream was quicker than the answer), if the focus was in it or nowhere.
 */
function moveFocus(card: HTMLElement | null, next: HTMLElement | null): void {
  const active = document.activeElement;
  const lost = !active || active === document.body || (card?.contains(active) ?? false);
  if (!lost) return;
  const target = next?.isConnected ? next : document.getElementById("composer");
  target?.focus();
}

/** The props of {@link InteractionCard}. */
export interface InteractionCardProps {
  interaction: Interaction;
  /** Shown inside the card of its tool call, which already shows the input. */
  inToolCard?: boolean;
  /** Where the request comes from, when it is shown outside its chat (the sidebar). */
  origin?: ComponentChildren;
}

/** One pending interaction, answerable. */
export function InteractionCard(
  { interaction, inToolCard = false, origin }: InteractionCardProps,
) {
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const card = useRef<HTMLElement>(null);
  // A request that appears in the page (a chat's card) takes the focus, unless the user is
  // typing or is in another request's card: Tab or Shift+Tab from there goes on as before. In the
  // sidebar it waits for the user (the "n waiting" button or Alt+Shift+W brings it). A card drawn
  // again elsewhere keeps the focus it had: a request that arrived before its tool call (the event
  // stream can be quicker than the chat's) moves into the call's card once the call is drawn.
  useEffect(() => {
    if (origin !== undefined) return;
    if (!focused.has(interaction.id)) {
      focused.add(interaction.id);
      const inAnother = document.activeElement?.closest("section.interaction");
      if (!typing() && !inAnother) focusCard(card.current);
    }
    const drawn = card.current;
    return () => {
      // This card goes with the focus (the DOM may already have dropped it, leaving the focus
      // on the body): the request's card drawn next takes it (its effect sees the mark gone),
      // and so does one drawn already, before this one went.
      const active = document.activeElement;
      if (!(drawn?.contains(active) || !active || active === document.body)) return;
      focused.delete(interaction.id);
      setTimeout(() => refocus(interaction.id), 0);
    };
  }, [interaction.id]);
  const answer = async (response: Answer) => {
    const answered = card.current;
    const next = nextFocus(answered);
    // Read now: the event stream may take the card away before the answer is back.
    const inSidebar = answered?.closest("#sidebar");
    busy.value = true;
    error.value = null;
    try {
      await api().interactions.answer(interaction.id, response);
      // The phone's drawer gives way once nothing more waits in it.
      if (inSidebar && !(next && inSidebar.contains(next))) closeDrawer();
      moveFocus(answered, next);
      removePending(interaction.id);
    } catch (failure) {
      busy.value = false;
      error.value = describeError(failure);
      // The buttons were disabled while the answer was on its way: the focus comes back.
      const active = document.activeElement;
      if (!active || active === document.body) {
        setTimeout(() => card.current?.querySelector<HTMLElement>(CONTROLS)?.focus(), 0);
      }
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
          <Choices
            busy={busy.value}
            answer={answer}
            choices={[
              { label: "Approve", response: { approved: true }, primary: true },
              {
                label: "Approve for this session",
                response: { approved: true, remember: "session" },
                title: "Run this tool without asking until Lass stops",
              },
              {
                label: "Always allow",
                response: { approved: true, remember: "always" },
                title: "Always run this tool without asking (saved in the config)",
              },
              { label: "Deny", response: { approved: false }, danger: true },
            ]}
          />
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
                <Choices
                  busy={busy.value}
                  answer={answer}
                  choices={[
                    { label: "Done", response: { action: "accept" }, primary: true },
                    {
                      label: "Decline",
                      response: { action: "decline" },
                      title: DECLINE_TITLE,
                    },
                    {
                      label: "Dismiss",
                      response: { action: "cancel" },
                      title: DISMISS_TITLE,
                    },
                  ]}
                />
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
          <p class="hint">
            Up to {interaction.maxTokens}{" "}
            tokens. Allow lets this chat's model answer; or type the reply yourself below.
          </p>
          <Choices
            busy={busy.value}
            answer={answer}
            choices={[
              { label: "Allow", response: { approved: true }, primary: true },
              {
                label: "Always allow",
                response: { approved: true, remember: "always" },
                title: "Always answer this server's sampling requests (saved in the config)",
              },
              { label: "Deny", response: { approved: false }, danger: true },
            ]}
          />
          <TypedReply id={interaction.id} busy={busy.value} answer={answer} />
        </>
      );
      break;
    case "proxy-hold":
      title = `Held: ${interaction.method}${from}`;
      body = <ProxyHoldBody hold={interaction} busy={busy.value} answer={answer} />;
      break;
  }
  return (
    <section
      ref={card}
      class={`interaction interaction-${interaction.kind}`}
      aria-label={title}
      data-interaction-id={interaction.id}
    >
      <h3>{title}</h3>
      {origin ? <p class="interaction-origin">{origin}</p> : null}
      {body}
      {error.value ? <p class="error" role="alert">{error.value}</p> : null}
    </section>
  );
}
