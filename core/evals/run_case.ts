/**
 * One run of an eval case: its turns as one conversation on the service, each judged by its own
 * expectations (and its judge model, for `expect.judge`).
 */
import { type ChatBody } from "../chat/request.ts";
import { prepareChat } from "../chat/run.ts";
import type { ChatChunk } from "../../wire/chat.ts";
import type { LlmProfile } from "../../wire/config/schema.ts";
import type { EvalJudgement } from "../../wire/evals.ts";
import type { Service } from "../service.ts";
import { judge } from "./expect.ts";
import { caseTurns, type EvalCase, type EvalTurn } from "./file.ts";
import { judgementReasons, judgeTurn } from "./judged.ts";
import { runCost, type RunResult } from "./report.ts";
import type { TraceSpan } from "../telemetry/types.ts";
import { addPriced, type Priced } from "../../wire/usage.ts";

/** Which run of which case on which model. */
export interface RunKey {
  caseIndex: number;
  /** The model profile id, or undefined for the workspace's own model or agent. */
  llmId: string | undefined;
  /** The report's name of the model. */
  model: string;
  run: number;
}

/** The messages a turn adds to the conversation: its `prompt` as a user message, or its `messages`. */
function turnMessages(turn: EvalTurn): ChatBody["messages"] {
  return turn.prompt !== undefined ? [{ role: "user", content: turn.prompt }] : turn.messages!;
}

/** The text of the latest user message, for the judge's `<request>`. */
function requestText(messages: ChatBody["messages"]): string {
  const content = messages.findLast((message) => message.role === "user")?.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.flatMap((part) =>
    typeof part === "object" && part !== null && part.type === "text" ? [String(part.text)] : []
  ).join("\n");
}

/** What a run needs besides its case and key. */
export interface RunContext {
  workspace: string;
  signal: AbortSignal;
  runIds: Set<string>;
  /** The judge of `expect.judge` without an `llmId`. */
  judge: LlmProfile | undefined;
  /**
   * The span the run's spans go under, when telemetry is on: the eval run's for a case, the
   * case's for its turns.
   */
  span?: TraceSpan;
}

/**
 * Runs one chat turn on the messages (its span under `context.span`): its chunks, an `error` chunk
 * when it cannot start.
 */
async function chatTurn(
  service: Service,
  messages: ChatBody["messages"],
  key: RunKey,
  context: RunContext,
): Promise<ChatChunk[]> {
  const chunks: ChatChunk[] = [];
  try {
    const chat = prepareChat(service, {
      messages,
      workspaceId: context.workspace,
      ...(key.llmId && { llmId: key.llmId }),
    });
    context.runIds.add(chat.runId);
    try {
      for await (const chunk of chat.run(context.signal, { parentSpan: context.span })) {
        chunks.push(chunk);
      }
    } finally {
      context.runIds.delete(chat.runId);
    }
  } catch (error) {
    chunks.push({ type: "error", message: (error as Error).message });
  }
  if (context.signal.aborted) throw context.signal.reason;
  return chunks;
}

/**
 * One run of a case: its turns one after the other as one conversation (each turn's messages
 * after the previous turns' and their answers, tool results included), each judged by its own
 * expectations. The first turn that fails ends the run; its reasons name it in a multi-turn case.
 */
export async function runOne(
  service: Service,
  testCase: EvalCase,
  key: RunKey,
  context: RunContext,
): Promise<RunResult> {
  const started = performance.now();
  const turns = caseTurns(testCase);
  const numbered = testCase.turns !== undefined;
  let conversation: ChatBody["messages"] = [];
  let tokens = 0;
  // What each turn (and each judgement) cost; a turn that finished no step cost nothing.
  const costs: Priced[] = [];
  const judgements: EvalJudgement[] = [];
  let failed: { turn: number; reasons: string[]; chunks: ChatChunk[] } | undefined;
  let lastChunks: ChatChunk[] = [];
  const span = context.span?.child(`eval_case ${testCase.name}`, {
    attributes: {
      "lass.eval.case": testCase.name,
      "lass.eval.model": key.model,
      "lass.eval.run": key.run,
    },
  });
  for (const [index, turn] of turns.entries()) {
    const messages = [...conversation, ...turnMessages(turn)];
    let chunks: ChatChunk[];
    try {
      // The turn's span goes under the case's.
      chunks = await chatTurn(service, messages, key, { ...context, span });
    } catch (error) {
      span?.end({ type: "aborted" });
      throw error;
    }
    lastChunks = chunks;
    const verdict = judge(chunks, turn.expect);
    tokens += verdict.facts.tokens;
    const turnCost = runCost(chunks);
    if (turnCost) costs.push(turnCost);
    const reasons = [...verdict.reasons];
    const spec = turn.expect.judge;
    const profile = spec && judgeProfile(service, spec.llmId, context.judge);
    if (spec && !profile) reasons.push("judge: no model profile to judge with");
    else if (spec && profile && verdict.facts.error === undefined) {
      const judgement = await judgeTurn(spec, {
        request: requestText(messages),
        chunks,
        answer: verdict.facts.text,
      }, {
        profile,
        env: service.env,
        run: key.run,
        ...(numbered && { turn: index + 1 }),
        signal: context.signal,
      });
      judgements.push(judgement);
      if (judgement.cost !== undefined) {
        costs.push({
          cost: judgement.cost,
          ...(judgement.costUnknown !== undefined && { costUnknown: judgement.costUnknown }),
        });
      }
      reasons.push(...judgementReasons(judgement));
    }
    if (reasons.length > 0) {
      failed = {
        turn: index + 1,
        reasons: numbered ? reasons.map((reason) => `turn ${index + 1}: ${reason}`) : reasons,
        chunks,
      };
      break;
    }
    const finish = chunks.find((chunk) => chunk.type === "finish");
    conversation = [
      ...messages,
      ...((finish?.type === "finish" ? finish.messages : []) as ChatBody["messages"]),
    ];
  }
  if (failed && numbered && failed.turn < turns.length) {
    const left = turns.length - failed.turn;
    failed.reasons.push(
      `turn ${failed.turn + 1}${left > 1 ? ` to ${turns.length}` : ""} did not run`,
    );
  }
  span?.set({ "lass.eval.passed": failed === undefined });
  span?.end(failed && { type: "eval_failed", message: failed.reasons.join("; ") });
  return {
    case: testCase.name,
    model: key.model,
    run: key.run,
    passed: failed === undefined,
    reasons: failed?.reasons ?? [],
    ...(failed && numbered && { turn: failed.turn }),
    tokens,
    ...(costs.length > 0 && { cost: addPriced(costs) }),
    durationMs: Math.round(performance.now() - started),
    chunks: failed?.chunks ?? lastChunks,
    judgements,
  };
}

/** The judge's profile: the expectation's `llmId`, else the file's or workspace's judge. */
function judgeProfile(
  service: Service,
  llmId: string | undefined,
  fallback: LlmProfile | undefined,
): LlmProfile | undefined {
  if (!llmId) return fallback;
  return service.config.config.llms.find((profile) => profile.id === llmId);
}
