/**
 * Judged expectations (`expect.judge`): a judge model scores one turn from 0 to 1 against a
 * rubric, with reasons, by structured output. The AI SDK loads with the first judgement.
 */
import { z } from "zod";
import type { ChatChunk } from "../../wire/chat.ts";
import type { LlmProfile } from "../../wire/config/schema.ts";
import type { EvalJudgement } from "../../wire/evals.ts";
import type { EnvLookup } from "../config/env_refs.ts";
import { scrubSecrets } from "../config/secrets.ts";
import type { EvalExpect } from "./file.ts";

/** The judge's answer, as its structured output must be. */
const JudgeOutputSchema = z.object({
  score: z.number().min(0).max(1).describe(
    "How well the turn meets the rubric: 0 not at all, 1 every point of it",
  ),
  reasons: z.array(z.string()).describe("One short reason per point of the rubric"),
});

/** What the judge is told to do; the turn itself comes in the prompt, in tagged sections. */
const JUDGE_INSTRUCTIONS =
  "You are a strict evaluator of one turn of an AI assistant. The user's message holds a " +
  "<rubric>, the user's <request>, the <tool-calls> the assistant made with their results, and " +
  "the assistant's <answer>. Score the turn from 0 (does not meet the rubric) to 1 (meets every " +
  "point of it) and give one short reason per point of the rubric. Judge only against the rubric.";

/** The longest text of one tool result or argument the judge is shown. */
const MAX_VALUE_CHARS = 2000;

/** A judged expectation with its defaults filled in. */
export type JudgeSpec = NonNullable<EvalExpect["judge"]>;

/** A value as the judge reads it: strings as they are, anything else as JSON, clipped. */
function shown(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? "null";
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS - 1)}…` : text;
}

/** The tool calls of a turn with their results, one line each. */
function callLines(chunks: readonly ChatChunk[]): string[] {
  const results = new Map(
    chunks.flatMap((chunk) => chunk.type === "tool-result" ? [[chunk.id, chunk] as const] : []),
  );
  return chunks.flatMap((chunk) => {
    if (chunk.type !== "tool-call") return [];
    const result = results.get(chunk.id);
    const outcome = !result
      ? "(no result)"
      : `${result.isError ? "error: " : "→ "}${shown(result.output)}`;
    return [`${chunk.name} ${shown(chunk.input)} ${outcome}`];
  });
}

/**
 * The judge's prompt: the rubric, the request, the tool calls and the answer, each in its own
 * tag (`<rubric>`, `<request>`, `<tool-calls>`, `<answer>`; the demo model reads them too).
 */
export function judgePrompt(
  input: { rubric: string; request: string; chunks: readonly ChatChunk[]; answer: string },
): string {
  const calls = callLines(input.chunks);
  return [
    `<rubric>\n${input.rubric.trim()}\n</rubric>`,
    `<request>\n${input.request.trim()}\n</request>`,
    `<tool-calls>\n${calls.length > 0 ? calls.join("\n") : "(none)"}\n</tool-calls>`,
    `<answer>\n${input.answer.trim()}\n</answer>`,
  ].join("\n\n");
}

/** Where the judgement stands in the report and who judges. */
export interface JudgeContext {
  profile: LlmProfile;
  env: EnvLookup;
  run: number;
  /** The turn's number, in a case with `turns`. */
  turn?: number;
  signal: AbortSignal;
}

/**
 * Asks the judge model to score a turn. Never throws for the judge's own failure (a model
 * error, an answer out of shape): the judgement then has score 0 and the `error`. An abort of
 * `signal` rejects.
 */
export async function judgeTurn(
  spec: JudgeSpec,
  turn: { request: string; chunks: readonly ChatChunk[]; answer: string },
  context: JudgeContext,
): Promise<EvalJudgement> {
  const head = {
    run: context.run,
    ...(context.turn !== undefined && { turn: context.turn }),
    judge: context.profile.id,
    threshold: spec.threshold,
    gate: spec.gate,
  };
  const [{ generateText, Output }, { configuredModel }, { usageOf }, { costOf }] = await Promise
    .all([
      import("ai"),
      import("../llm/providers.ts"),
      import("../llm/sdk_usage.ts"),
      import("../llm/cost.ts"),
    ]);
  const { model, settings, secrets, problem } = configuredModel(context.profile, context.env);
  try {
    if (problem) throw new Error(problem);
    const result = await generateText({
      ...settings,
      model,
      instructions: JUDGE_INSTRUCTIONS,
      prompt: judgePrompt({ rubric: spec.rubric, ...turn }),
      output: Output.object({ schema: JudgeOutputSchema, name: "judgement" }),
      abortSignal: context.signal,
      maxRetries: 1,
    });
    const { score, reasons } = result.output;
    // The judge's call is paid for too: its tokens and price count in the run's cost.
    const usage = usageOf(result.totalUsage);
    const priced = await costOf(context.profile, usage);
    return { ...head, score, passed: score >= spec.threshold, reasons, usage, ...priced };
  } catch (error) {
    if (context.signal.aborted) throw context.signal.reason;
    const message = scrubSecrets((error as Error).message ?? String(error), secrets);
    return {
      ...head,
      score: 0,
      passed: false,
      reasons: [],
      error: `the judge ${context.profile.id} gave no score: ${message}`,
    };
  }
}

/** The reasons a judgement adds to its run's: none when it passed or is advisory. */
export function judgementReasons(judgement: EvalJudgement): string[] {
  if (judgement.passed || !judgement.gate) return [];
  if (judgement.error) return [`judge: ${judgement.error}`];
  const why = judgement.reasons.length > 0 ? ` (${judgement.reasons.join("; ")})` : "";
  return [
    `judge: ${judgement.judge} scored ${judgement.score}, below the threshold ` +
    `${judgement.threshold}${why}`,
  ];
}
