/**
 * Running an eval: every case × model × repeat is one chat turn on the service, run in process
 * with a concurrency limit, judged by its expectations and gathered into a report.
 */
import { type ChatBody, resolveChat } from "../chat/request.ts";
import { prepareChat } from "../chat/run.ts";
import type { ChatChunk } from "../../wire/chat.ts";
import type { Service } from "../service.ts";
import type { EvalProgress, EvalShard } from "../../wire/evals.ts";
import { referenceProblems } from "./check.ts";
import { judge } from "./expect.ts";
import { caseTurns, type EvalCase, type EvalFile, type EvalTurn, invalidEval } from "./file.ts";
import { judgementReasons, judgeTurn } from "./judged.ts";
import type { EvalJudgement } from "../../wire/evals.ts";
import type { LlmProfile } from "../../wire/config/schema.ts";
import { buildReport, type RunResult } from "./report.ts";
import { type EvalReport } from "../../wire/evals.ts";
import { type Shard, shardOf, shardRecord } from "./shard.ts";
import { defaultWorkspace } from "../config/workspaces.ts";

/** How to run an eval. */
export interface EvalOptions {
  /** Model profile ids, over the file's `models`; one given twice runs once. */
  models?: string[];
  /** Runs per case and model; default 1. */
  repeat?: number;
  /** Runs at the same time; default 4. */
  concurrency?: number;
  shard?: Shard;
  /** Answer the runs' approval questions: `all` approves, `none` (default) denies. */
  approve?: "all" | "none";
  /** Where the file's fields sit in the input, for problem paths (e.g. `eval` in a request). */
  pathPrefix?: string;
  /** The eval file's name, kept with the report. */
  file?: string;
}

/** One planned run. */
export interface RunKey {
  caseIndex: number;
  /** The model profile id, or undefined for the workspace's own model or agent. */
  llmId: string | undefined;
  /** The report's name of the model. */
  model: string;
  run: number;
}

/** An eval checked against the config, its runs planned. */
export interface PreparedEval {
  workspace: string;
  models: string[];
  /** The runs of this shard, in the stable order. */
  runs: RunKey[];
  /** Runs them; aborting `signal` stops every turn in progress and starts no more. */
  run(options?: {
    signal?: AbortSignal;
    onProgress?: (line: EvalProgress) => void;
  }): Promise<EvalReport>;
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

/**
 * Checks an eval against the config (workspace, models, messages: 400 `invalid-request` with
 * every problem at its path) and plans its runs; nothing runs yet.
 */
export function prepareEval(
  service: Service,
  file: EvalFile,
  options: EvalOptions = {},
): PreparedEval {
  const problems = referenceProblems(service, { raw: file, file }, options);
  if (problems.length > 0) throw invalidEval(problems);
  const config = service.config.config;
  const workspace = file.workspace ?? defaultWorkspace(config)!.id;
  const ids: (string | undefined)[] = [...new Set(options.models ?? file.models ?? [undefined])];
  // Without models the workspace's own responder answers: named by its profile or agent id.
  const targets = ids.map((llmId) => {
    const { responder } = resolveChat(config, {
      messages: [],
      workspaceId: workspace,
      ...(llmId && { llmId }),
    });
    return { llmId, model: responder.kind === "model" ? responder.profile.id : responder.agent.id };
  });
  const repeat = options.repeat ?? 1;
  const all: RunKey[] = [];
  file.cases.forEach((_, caseIndex) => {
    for (const target of targets) {
      for (let run = 1; run <= repeat; run++) all.push({ caseIndex, ...target, run });
    }
  });
  const runs = options.shard ? shardOf(all, options.shard) : all;
  const models = targets.map((target) => target.model);
  const shard = options.shard &&
    shardRecord(options.shard, { file, models, repeat, totalRuns: all.length });
  return {
    workspace,
    models,
    runs,
    run: (runOptions = {}) =>
      runAll(service, file, { ...options, ...runOptions, workspace, models, runs, shard }),
  };
}

interface RunAll extends Omit<EvalOptions, "shard"> {
  workspace: string;
  shard?: EvalShard;
  models: string[];
  runs: RunKey[];
  signal?: AbortSignal;
  onProgress?: (line: EvalProgress) => void;
}

/** What a run needs besides its case and key. */
interface RunContext {
  workspace: string;
  signal: AbortSignal;
  runIds: Set<string>;
  /** The judge of `expect.judge` without an `llmId`. */
  judge: LlmProfile | undefined;
}

/** Runs one chat turn on the messages: its chunks, an `error` chunk when it cannot start. */
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
      for await (const chunk of chat.run(context.signal)) chunks.push(chunk);
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
async function runOne(
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
  const judgements: EvalJudgement[] = [];
  let failed: { turn: number; reasons: string[]; chunks: ChatChunk[] } | undefined;
  let lastChunks: ChatChunk[] = [];
  for (const [index, turn] of turns.entries()) {
    const messages = [...conversation, ...turnMessages(turn)];
    const chunks = await chatTurn(service, messages, key, context);
    lastChunks = chunks;
    const verdict = judge(chunks, turn.expect);
    tokens += verdict.facts.tokens;
    const reasons = [...verdict.reasons];
    const spec = turn.expect.judge;
    const profile = spec && judgeProfile(service, spec.llmId, context.judge);
    if (spec && profile && verdict.facts.error === undefined) {
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
  return {
    case: testCase.name,
    model: key.model,
    run: key.run,
    passed: failed === undefined,
    reasons: failed?.reasons ?? [],
    ...(failed && numbered && { turn: failed.turn }),
    tokens,
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

/**
 * Answers the approval questions of the eval's own turns as `approve` says, so no run waits for
 * a person. Returns the stop function.
 */
function answerApprovals(service: Service, runIds: Set<string>, approve: boolean): () => void {
  return service.events.subscribe((event) => {
    if (event.type !== "interaction.created") return;
    const interaction =
      (event.data as { interaction?: { id: string; kind: string; runId?: string } })
        .interaction;
    if (interaction?.kind !== "approval" || !interaction.runId) return;
    if (!runIds.has(interaction.runId)) return;
    // After the emit that announced it: the registry is not re-entered from its own event.
    queueMicrotask(() => {
      // A rejection: already settled, the turn ended first.
      service.interactions.answer(interaction.id, { approved: approve }).catch(() => {});
    });
  });
}

/**
 * Connects the workspace's tool servers (each until it is connected or has failed), so that no
 * run finds one still starting; an abort stops the wait.
 */
async function connectToolServers(
  service: Service,
  workspaceId: string,
  signal: AbortSignal,
): Promise<void> {
  if (signal.aborted) return;
  const workspace = service.config.config.workspaces.find((w) => w.id === workspaceId);
  const connected = Promise.allSettled(
    (workspace?.mcpServerIds ?? []).map((id) => service.mcp.connect(id)),
  );
  let onAbort = () => {};
  const aborted = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    await Promise.race([connected, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** The judge of the file's judged expectations without an `llmId`: its `judge`, else the workspace's model. */
function defaultJudge(service: Service, file: EvalFile, workspaceId: string) {
  const config = service.config.config;
  const workspace = config.workspaces.find((candidate) => candidate.id === workspaceId);
  const id = file.judge ?? workspace?.llmId;
  return id ? config.llms.find((profile) => profile.id === id) : config.llms[0];
}

/** Runs the planned runs, at most `concurrency` at a time, and builds the report. */
async function runAll(service: Service, file: EvalFile, plan: RunAll): Promise<EvalReport> {
  const abort = new AbortController();
  const onAbort = () => abort.abort(plan.signal?.reason);
  if (plan.signal?.aborted) onAbort();
  plan.signal?.addEventListener("abort", onAbort, { once: true });
  const runIds = new Set<string>();
  const stopAnswering = answerApprovals(service, runIds, plan.approve === "all");
  const results: RunResult[] = [];
  const judge = defaultJudge(service, file, plan.workspace);
  plan.onProgress?.({
    type: "start",
    workspace: plan.workspace,
    models: plan.models,
    cases: new Set(plan.runs.map((key) => key.caseIndex)).size,
    runs: plan.runs.length,
  });
  let next = 0;
  const worker = async () => {
    while (next < plan.runs.length && !abort.signal.aborted) {
      const key = plan.runs[next++];
      const result = await runOne(service, file.cases[key.caseIndex], key, {
        workspace: plan.workspace,
        signal: abort.signal,
        runIds,
        judge,
      });
      results.push(result);
      plan.onProgress?.({
        type: "run",
        case: result.case,
        model: result.model,
        run: result.run,
        passed: result.passed,
        ...(!result.passed && { reason: result.reasons.join("; ") }),
        tokens: result.tokens,
        durationMs: result.durationMs,
        done: results.length,
      });
    }
  };
  const workers = Math.max(1, Math.min(plan.concurrency ?? 4, plan.runs.length));
  try {
    await connectToolServers(service, plan.workspace, abort.signal);
    await Promise.all(Array.from({ length: workers }, worker));
  } catch (error) {
    abort.abort(error);
    throw error;
  } finally {
    stopAnswering();
    plan.signal?.removeEventListener("abort", onAbort);
  }
  if (abort.signal.aborted) throw abort.signal.reason;
  const order = file.cases.flatMap((testCase) =>
    plan.models.map((model) => `${testCase.name}\n${model}`)
  );
  const report = buildReport(
    { workspace: plan.workspace, models: plan.models, ...(plan.shard && { shard: plan.shard }) },
    results,
    order,
  );
  return await keep(service, plan.file === undefined ? report : { ...report, file: plan.file });
}

/** Keeps the report among the kept ones; one that cannot be kept says why in `keepError`. */
async function keep(service: Service, report: EvalReport): Promise<EvalReport> {
  try {
    return await service.evalReports.save(report);
  } catch (error) {
    return { ...report, keepError: (error as Error).message };
  }
}
