/** The answer of a turn (or of a compare column): its parts, pending questions, and how it ended. */
import type { Signal } from "@preact/signals";
import { useContext } from "preact/hooks";
import { SaveCaseButton } from "../evals/save_case_button.tsx";
import { ChatContext } from "./context.ts";
import { RunEventsLink } from "../events/link.tsx";
import { formatDuration } from "../format.ts";
import { InteractionCard } from "./interaction.tsx";
import type { ToolCallView, Turn } from "./model.ts";
import { RetryButton } from "./retry.tsx";
import { RichText } from "../rich_text.tsx";
import { ToolCard } from "./tool_card.tsx";
import type { Interaction } from "../../wire/interactions.ts";
import { type ChatUsage, type Priced, priceWords, tokenCount } from "../../wire/usage.ts";

/** `1200 in (400 cached), 300 out (120 reasoning)`: the counts the provider reported. */
function tokenDetails(usage: ChatUsage): string {
  const part = (count: number | undefined, label: string, inner?: [number | undefined, string]) =>
    count === undefined
      ? []
      : [`${count} ${label}${inner?.[0] ? ` (${inner[0]} ${inner[1]})` : ""}`];
  return [
    ...part(usage.inputTokens, "in", [usage.cachedInputTokens, "cached"]),
    ...part(usage.outputTokens, "out", [usage.reasoningTokens, "reasoning"]),
  ].join(", ");
}

/** Where a cost comes from, or why there is none, as the cost's tooltip says it. */
function costSource(priced: Priced): string {
  switch (priced.cost?.source) {
    case "catalog":
      return "Priced from the models.dev catalog";
    case "profile":
      return "Priced by the model profile's pricing";
    case "demo":
      return "The built-in demo model is free";
    default:
      return `No price: ${priced.costUnknown ?? "unknown"}`;
  }
}

/** An answer's tokens and cost, as spans of its meta line. */
function UsageSpans({ usage, cost }: { usage?: ChatUsage; cost?: Priced }) {
  return (
    <>
      {usage && tokenCount(usage) > 0
        ? <span class="turn-tokens" title={tokenDetails(usage)}>{tokenCount(usage)} tokens</span>
        : null}
      {cost ? <span class="turn-cost" title={costSource(cost)}>{priceWords(cost)}</span> : null}
    </>
  );
}

function TextPart({ text }: { text: Signal<string> }) {
  return <RichText text={text.value} />;
}

function ReasoningPart({ text }: { text: Signal<string> }) {
  return (
    <details class="reasoning">
      <summary>Reasoning</summary>
      <div class="reasoning-text">{text}</div>
    </details>
  );
}

/**
 * Which tool call a pending interaction belongs to: an approval to the waiting call of that tool,
 * an elicitation or sampling request to the running call on the server that sent it.
 */
function ownerOf(interaction: Interaction, calls: ToolCallView[]): string | undefined {
  const running = calls.filter((call) => call.result.value === undefined);
  const match = running.find((call) =>
    (interaction.serverId === undefined || call.source === interaction.serverId) &&
    (interaction.kind !== "approval" || call.tool === interaction.tool)
  );
  return match?.id;
}

/** The props of {@link AnswerView}. */
export interface AnswerViewProps {
  turn: Turn;
  /** Every pending interaction; the answer shows those of its run. */
  pending: Interaction[];
  /** A compare column: no Retry (the compare turn is retried as a whole). */
  column?: boolean;
}

/** What answered a user message, streamed part by part. */
export function AnswerView({ turn, pending, column }: AnswerViewProps) {
  const parts = turn.parts.value;
  const status = turn.status.value;
  const runId = turn.runId.value;
  const mine = runId ? pending.filter((interaction) => interaction.runId === runId) : [];
  const calls = parts.flatMap((part) => part.kind === "tool" ? [part.call] : []);
  const byCall = new Map<string, Interaction[]>();
  const loose: Interaction[] = [];
  for (const interaction of mine) {
    const owner = ownerOf(interaction, calls);
    if (owner) byCall.set(owner, [...(byCall.get(owner) ?? []), interaction]);
    else loose.push(interaction);
  }
  const chat = useContext(ChatContext);
  const durationMs = turn.durationMs.value;
  const usage = turn.usage.value;
  return (
    <div class="msg msg-assistant" aria-busy={status === "streaming"}>
      <h2 class="visually-hidden">Answer</h2>
      {parts.map((part, i) =>
        part.kind === "text"
          ? <TextPart key={i} text={part.text} />
          : part.kind === "reasoning"
          ? <ReasoningPart key={i} text={part.text} />
          : (
            <ToolCard
              key={part.call.id}
              call={part.call}
              interactions={byCall.get(part.call.id) ?? []}
              streaming={status === "streaming"}
              runId={runId}
            />
          )
      )}
      {status === "streaming" && parts.length === 0 && loose.length === 0
        ? <p class="thinking">Thinking…</p>
        : null}
      {loose.map((interaction) => (
        <InteractionCard
          key={interaction.id}
          interaction={interaction}
        />
      ))}
      {status === "stopped" ? <p class="note" role="status">Stopped.</p> : null}
      {status !== "done" && status !== "streaming" && turn.cost.value
        ? (
          <p class="turn-meta">
            <UsageSpans usage={usage} cost={turn.cost.value} />
          </p>
        )
        : null}
      {status === "error"
        ? (
          <div class="turn-failed">
            <p class="error" role="alert">
              {turn.error.value}
            </p>
            {column ? null : <RetryButton turn={turn} />}
            {runId
              ? (
                <p class="turn-meta">
                  <RunEventsLink runId={runId} />
                </p>
              )
              : null}
          </div>
        )
        : null}
      {status === "done"
        ? (
          <p class="turn-meta">
            {turn.model.value ? <span>{turn.model.value}</span> : null}
            {durationMs !== undefined ? <span>{formatDuration(durationMs)}</span> : null}
            <UsageSpans usage={usage} cost={turn.cost.value} />
            {runId ? <RunEventsLink runId={runId} /> : null}
            {chat && !column && turn.sessionIndex !== undefined
              ? (
                <SaveCaseButton
                  sessionId={chat.id}
                  turn={turn.sessionIndex}
                  class="icon turn-action"
                />
              )
              : null}
          </p>
        )
        : null}
    </div>
  );
}
