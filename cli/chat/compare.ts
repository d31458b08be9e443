/** `lass chat --compare a,b "..."`: one turn per column, the answers one after the other, then a table. */
import type { ChatChunk, CompareChunk, CompareColumnSummary } from "../../wire/chat.ts";
import { type ChatCost, formatUsd } from "../../wire/usage.ts";
import { type Api, apiError, ndjsonLines } from "../api.ts";
import type { InteractionAnswers } from "../answers.ts";
import { print, TextOutput } from "./output.ts";
import { CliError } from "../errors.ts";
import type { Spinner } from "../spinner.ts";
import { table } from "../table.ts";

/** The columns of `--compare`: model profile ids, or `agent:<id>` for a remote agent. */
export function compareColumns(value: string): { llmId?: string; agentId?: string }[] {
  const ids = value.split(",").map((id) => id.trim());
  if (ids.length < 2 || ids.length > 4 || ids.some((id) => id === "" || id === "agent:")) {
    throw new CliError("--compare takes 2 to 4 model profile ids (or agent:<id>), comma-separated");
  }
  return ids.map((id) => id.startsWith("agent:") ? { agentId: id.slice(6) } : { llmId: id });
}

/** A cost as the summary shows it: dollars, or `-` when there is no price. */
function costText(cost: ChatCost | null): string {
  return cost ? formatUsd(cost.usd) : "-";
}

/** The summary as a text table. */
export function summaryTable(columns: CompareColumnSummary[]): string {
  const rows = [["#", "column", "time", "tokens in/out", "cost", "tool calls", "steps", "error"]];
  for (const column of columns) {
    rows.push([
      String(column.column + 1),
      column.label,
      `${(column.ms / 1000).toFixed(2)} s`,
      `${column.usage.inputTokens ?? "-"}/${column.usage.outputTokens ?? "-"}`,
      costText(column.cost),
      String(column.toolCalls),
      String(column.steps),
      column.error ?? "",
    ]);
  }
  return table(rows);
}

/** How one turn of `lass chat` runs and prints, a plain one or a compare turn. */
export interface TurnOptions {
  api: Api;
  body: Record<string, unknown>;
  json: boolean;
  answers: InteractionAnswers;
  spinner: Spinner;
  /** Ctrl-C: the turn's stream is cancelled (the API ends the turn as aborted). */
  signal: AbortSignal;
}

/**
 * Runs one compare turn. Its chunks are kept per column while the columns run (their questions
 * are answered as they come) and printed at the end, one column after the other, then the
 * summary; with `json`, the NDJSON lines as they come. False when any column failed.
 */
export async function runCompareTurn(options: TurnOptions): Promise<boolean> {
  const { spinner } = options;
  spinner.start("starting the columns");
  const response = await options.api.call("/api/chat/compare", {
    method: "POST",
    json: options.body,
  }).finally(() => spinner.stop());
  if (!response.ok || !response.body) throw await apiError(response, "the compare was refused");
  const columns = new Map<number, ChatChunk[]>();
  let summary: CompareColumnSummary[] | undefined;
  spinner.start("the columns are running");
  try {
    for await (const { line, value } of ndjsonLines(response.body, options.signal)) {
      const chunk = value as CompareChunk;
      if (options.json) {
        spinner.stop();
        print(`${line}\n`);
      }
      if (chunk.type === "compare-summary") summary = chunk.columns;
      else {
        if (chunk.type === "start") options.answers.addRun(chunk.runId);
        const { column, ...plain } = chunk;
        columns.set(column, [...columns.get(column) ?? [], plain as ChatChunk]);
      }
    }
  } finally {
    spinner.stop();
  }
  options.signal.throwIfAborted();
  if (!summary) throw new CliError("the compare stream ended without its summary", 1);
  if (!options.json) {
    for (const column of summary) {
      print(`${column.column > 0 ? "\n" : ""}── ${column.column + 1}. ${column.label} ──\n`);
      const text = new TextOutput();
      for (const chunk of columns.get(column.column) ?? []) text.write(chunk);
    }
    print(`\n${summaryTable(summary)}\n`);
  }
  return summary.every((column) => column.error === undefined);
}
