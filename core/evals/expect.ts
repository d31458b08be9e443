/** Judging one eval run: a chat turn's chunks against a case's expectations. */
import type { ChatChunk } from "../../wire/chat.ts";
import type { EvalExpect } from "./file.ts";

/** What one turn did, read from its chunks. */
export interface TurnFacts {
  /** The tool calls by model name, in order. */
  calls: { name: string; input: unknown }[];
  /** The answer's text over every step. */
  text: string;
  steps: number;
  /** Input + output tokens of the whole turn (0 when the model reports none). */
  tokens: number;
  /** The `error` chunk's message, or why the turn has no `finish`. */
  error?: string;
  /** The workspace's tool servers the turn went on without (the `start` chunk's `unavailable`). */
  leftOut: { serverId: string; status: string; error: string }[];
}

/** The verdict on one run: passed, or each failed expectation named in `reasons`. */
export interface Verdict {
  passed: boolean;
  reasons: string[];
  facts: TurnFacts;
}

type Usage = { inputTokens?: number; outputTokens?: number; totalTokens?: number };

/** Total tokens of a usage record: `totalTokens`, else input + output. */
function tokensOf(usage: Usage | undefined): number {
  if (!usage) return 0;
  return usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}

/** Reads the calls, the text, the steps and the tokens of a turn from its chunks. */
export function turnFacts(chunks: readonly ChatChunk[]): TurnFacts {
  const calls: TurnFacts["calls"] = [];
  let text = "";
  let steps = 0;
  let stepTokens = 0;
  let finishTokens: number | undefined;
  let error: string | undefined;
  let leftOut: TurnFacts["leftOut"] = [];
  for (const chunk of chunks) {
    if (chunk.type === "start") leftOut = chunk.unavailable ?? [];
    else if (chunk.type === "tool-call") calls.push({ name: chunk.name, input: chunk.input });
    else if (chunk.type === "text") text += chunk.text;
    else if (chunk.type === "step") {
      steps++;
      stepTokens += tokensOf(chunk.usage);
    } else if (chunk.type === "finish") finishTokens = tokensOf(chunk.usage);
    else if (chunk.type === "error") error = chunk.message;
  }
  if (error === undefined && finishTokens === undefined) error = "the turn did not finish";
  const tokens = finishTokens || stepTokens;
  return { calls, text, steps, tokens, leftOut, ...(error && { error }) };
}

/** Whether `actual` has every field of `expected` with an equal value (objects compared deeply). */
function isSubset(expected: unknown, actual: unknown): boolean {
  if (expected === actual) return true;
  if (typeof expected !== "object" || expected === null) return false;
  if (typeof actual !== "object" || actual === null) return false;
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.length === actual.length &&
      expected.every((item, index) => isSubset(item, actual[index]));
  }
  if (Array.isArray(actual)) return false;
  const record = actual as Record<string, unknown>;
  return Object.entries(expected).every(([key, value]) => isSubset(value, record[key]));
}

/** An argument as `argsMatch` regexes see it: strings as they are, anything else as JSON. */
function argText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value) ?? "";
}

type ExpectedCall = NonNullable<EvalExpect["calls"]>[number];

/** Why one call does not fit an expected call, or undefined when it does. */
function misfit(expected: ExpectedCall, call: TurnFacts["calls"][number]): string | undefined {
  if (call.name !== expected.tool) return `is ${call.name}`;
  const input = (typeof call.input === "object" && call.input !== null ? call.input : {}) as Record<
    string,
    unknown
  >;
  if (expected.args && !isSubset(expected.args, input)) {
    return `has arguments ${JSON.stringify(call.input)}, not ${JSON.stringify(expected.args)}`;
  }
  for (const [key, pattern] of Object.entries(expected.argsMatch ?? {})) {
    if (!(key in input)) return `has no argument ${key}`;
    if (!new RegExp(pattern).test(argText(input[key]))) {
      return `has ${key} = ${argText(input[key])}, which does not match /${pattern}/`;
    }
  }
  return undefined;
}

/**
 * Pairs each expected call with a different actual call (a bipartite matching, so an expected
 * call is never starved by an earlier, looser one); returns the indexes left unpaired.
 */
function unmatchedCalls(expected: ExpectedCall[], calls: TurnFacts["calls"]): number[] {
  const owner = new Array<number>(calls.length).fill(-1);
  const tryPair = (e: number, seen: Set<number>): boolean => {
    for (let c = 0; c < calls.length; c++) {
      if (seen.has(c) || misfit(expected[e], calls[c])) continue;
      seen.add(c);
      if (owner[c] === -1 || tryPair(owner[c], seen)) {
        owner[c] = e;
        return true;
      }
    }
    return false;
  };
  return expected.flatMap((_, e) => tryPair(e, new Set()) ? [] : [e]);
}

/**
 * Why an expected call has no match: a call by that name with other arguments, too few calls by
 * that name for the calls expected, or none at all.
 */
function missingReason(index: number, expected: ExpectedCall[], calls: TurnFacts["calls"]): string {
  const { tool } = expected[index];
  const sameName = calls.filter((call) => call.name === tool);
  const unfit = sameName.map((call) => misfit(expected[index], call)).find(Boolean);
  if (sameName.length === 0) return `calls.${index}: ${tool} was not called`;
  if (unfit) return `calls.${index}: ${tool} was called, but it ${unfit}`;
  const wanted = expected.filter((call) => call.tool === tool).length;
  return `calls.${index}: ${tool} was called ${sameName.length} ${
    sameName.length === 1 ? "time" : "times"
  }, fewer than the ${wanted} calls expected`;
}

/** The failed expectations about calls: missing calls, or the order when `ordered`. */
function callReasons(expect: EvalExpect, calls: TurnFacts["calls"]): string[] {
  const expected = expect.calls ?? [];
  const reasons = unmatchedCalls(expected, calls).map((index) =>
    missingReason(index, expected, calls)
  );
  if (reasons.length > 0 || !expect.ordered) return reasons;
  // In order: each expected call matched by a later call than the one before.
  let from = 0;
  for (const [index, call] of expected.entries()) {
    const at = calls.findIndex((actual, c) => c >= from && misfit(call, actual) === undefined);
    if (at === -1) {
      return [
        `ordered: calls.${index} (${call.tool}) did not come after calls.${index - 1}; ` +
        `the calls were ${calls.map((c) => c.name).join(", ")}`,
      ];
    }
    from = at + 1;
  }
  return [];
}

/** The failed expectations about the answer's text. */
function textReasons(text: EvalExpect["text"], answer: string): string[] {
  if (!text) return [];
  const reasons: string[] = [];
  for (const part of text.contains ?? []) {
    if (!answer.includes(part)) reasons.push(`text.contains: the answer has no "${part}"`);
  }
  for (const part of text.notContains ?? []) {
    if (answer.includes(part)) reasons.push(`text.notContains: the answer has "${part}"`);
  }
  if (text.regex !== undefined && !new RegExp(text.regex).test(answer)) {
    reasons.push(`text.regex: the answer does not match /${text.regex}/`);
  }
  return reasons;
}

/** Judges a turn's chunks against a case's expectations; every failed one is a reason. */
export function judge(chunks: readonly ChatChunk[], expect: EvalExpect): Verdict {
  const facts = turnFacts(chunks);
  const reasons: string[] = [];
  if (facts.error !== undefined) reasons.push(`the turn failed: ${facts.error}`);
  reasons.push(...callReasons(expect, facts.calls));
  for (const name of expect.notCalled ?? []) {
    if (facts.calls.some((call) => call.name === name)) {
      reasons.push(`notCalled: ${name} was called`);
    }
  }
  reasons.push(...textReasons(expect.text, facts.text));
  if (expect.maxSteps !== undefined && facts.steps > expect.maxSteps) {
    reasons.push(`maxSteps: the turn took ${facts.steps} steps, more than ${expect.maxSteps}`);
  }
  if (expect.maxTokens !== undefined && facts.tokens > expect.maxTokens) {
    reasons.push(`maxTokens: the turn used ${facts.tokens} tokens, more than ${expect.maxTokens}`);
  }
  // A failed run says which tool servers it went without: often the reason a call is missing.
  if (reasons.length > 0) {
    for (const gap of facts.leftOut) {
      reasons.push(
        `the turn went without tool server ${gap.serverId} (${gap.status}): ${gap.error}`,
      );
    }
  }
  return { passed: reasons.length === 0, reasons, facts };
}
