/**
 * History's "Run again": sends a past tool call, prompt or resource read again, then opens the new
 * request's row at the top, brings it into view and shows the answer there. Beside it, "Edit and
 * send" loads the request into its form, and a tool call's "Copy as…".
 */
import { JsonBlock } from "../copy_button.tsx";
import { type Signal, useSignal } from "@preact/signals";
import { describeError } from "../state.ts";
import { type CallOutcome, mcpApi } from "../tool_servers.ts";
import { CallResult } from "./tool_panel.tsx";
import { CopyAs } from "./copy_as.tsx";
import { editAgain } from "./edit_request.ts";
import { type Exchange, rerunOf, type TimelineItem } from "./timeline.ts";

/** What a Run again answered: a tool's outcome, a prompt's or a read's result, or the failure. */
export type RerunAnswer =
  | { kind: "tool"; outcome: CallOutcome }
  | { kind: "other"; result: unknown }
  | { kind: "failed"; message: string };

/** One Run again: what it sent (to find its row in the trace) and, once back, its answer. */
export interface RerunEntry {
  id: number;
  method: string;
  subject: string;
  /** The newest seq of the trace when it was sent: its own row comes after. */
  after: number;
  answer?: RerunAnswer;
}

let nextId = 1;

/** Each Run again's row: the oldest matching request sent after it, one row per Run again. */
export function rerunRows(items: TimelineItem[], reruns: RerunEntry[]): Map<number, RerunEntry> {
  const rows = new Map<number, RerunEntry>();
  for (const entry of reruns) {
    const row = items.find((item) =>
      item.kind === "exchange" && item.dir === "out" && item.seq > entry.after &&
      item.method === entry.method && item.subject === entry.subject && !rows.has(item.seq)
    );
    if (row) rows.set(row.seq, entry);
  }
  return rows;
}

/** The answer of a Run again, in its new row. */
export function RerunResult({ entry, serverId }: { entry: RerunEntry; serverId: string }) {
  const answer = entry.answer;
  if (!answer) return <p class="hint" role="status">Sent again; waiting for the answer…</p>;
  if (answer.kind === "tool") {
    return <CallResult outcome={answer.outcome} serverId={serverId} label="Result of Run again" />;
  }
  return (
    <section
      class={`call-result${answer.kind === "failed" ? " is-error" : ""}`}
      aria-label="Result of Run again"
    >
      <h4>Result of Run again</h4>
      {answer.kind === "failed"
        ? <p role="alert">{answer.message}</p>
        : <JsonBlock value={answer.result} />}
    </section>
  );
}

/** The props of {@link RerunButton}. */
export interface RerunButtonProps {
  serverId: string;
  exchange: Exchange;
  reruns: Signal<RerunEntry[]>;
  /** The newest seq of the trace now. */
  lastSeq: number;
}

/** "Run again" under a past request: the answer shows in the new row, brought into view. */
export function RerunButton({ serverId, exchange, reruns, lastSeq }: RerunButtonProps) {
  const outcome = useSignal<string | null>(null);
  const busy = useSignal(false);
  const rerun = rerunOf(exchange);
  if (!rerun) return null;
  const send = async () => {
    busy.value = true;
    outcome.value = null;
    const entry: RerunEntry = {
      id: nextId++,
      method: exchange.method,
      subject: exchange.subject,
      after: lastSeq,
    };
    reruns.value = [...reruns.value, entry];
    let answer: RerunAnswer;
    try {
      if (rerun.kind === "tool") {
        answer = { kind: "tool", outcome: await mcpApi.call(serverId, rerun.name, rerun.args) };
        outcome.value = answer.outcome.result.isError
          ? "Sent again: the tool answered an error."
          : "Sent again.";
      } else {
        const result = rerun.kind === "prompt"
          ? await mcpApi.prompt(serverId, rerun.name, rerun.args)
          : await mcpApi.resource(serverId, rerun.uri);
        answer = { kind: "other", result };
        outcome.value = "Sent again.";
      }
    } catch (error) {
      answer = { kind: "failed", message: describeError(error) };
      outcome.value = `Sent again: ${answer.message}`;
    } finally {
      busy.value = false;
    }
    reruns.value = reruns.value.map((each) => each.id === entry.id ? { ...each, answer } : each);
  };
  return (
    <>
      <p class="rerun">
        <button type="button" disabled={busy.value} onClick={send}>
          {busy.value ? "Sending…" : "Run again"}
        </button>
        <button
          type="button"
          title="Load it into its form above, to change it and send it"
          onClick={() => editAgain(serverId, rerun)}
        >
          Edit and send
        </button>
        <span class="hint" role="status">
          {outcome.value ? `${outcome.value} Its answer is in the new row at the top.` : ""}
        </span>
      </p>
      {rerun.kind === "tool"
        ? <CopyAs serverId={serverId} tool={rerun.name} args={rerun.args} />
        : null}
    </>
  );
}
