/**
 * Running an eval: every case × model × repeat is one chat turn on the service, run in process
 * with a concurrency limit, judged by its expectations and gathered into a report.
 */
import { modelMessageSchema } from "ai";
import { type ChatBody, resolveChat } from "../chat/request.ts";
import { prepareChat } from "../chat/run.ts";
import type { ChatChunk } from "../chat/chunks.ts";
import { detailsFromIssues, type ErrorDetail } from "../errors.ts";
import type { Service } from "../service.ts";
import type { EvalProgress } from "../../wire/evals.ts";
import { judge } from "./expect.ts";
import { type EvalCase, type EvalFile, invalidEval } from "./file.ts";
import { buildReport, type EvalReport, type RunResult } from "./report.ts";

/** One slice of `count` (1-based `index`). */
export interface Shard {
  index: number;
  count: number;
}

/** How to run an eval. */
export interface EvalOptions {
  /** Model profile ids, over the file's `models`. */
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

/** Reads `i/n` (1 ≤ i ≤ n); a bad value is 400 `invalid-request` at `path`. */
export function parseShard(text: string, path = "shard"): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || index < 1 || count < 1 || index > count) {
    throw invalidEval([{ path, message: `must be i/n with 1 ≤ i ≤ n, not "${text}"` }]);
  }
  return { index, count };
}

/**
 * The `index`-th of `count` contiguous, nearly equal slices of the runs in their stable order
 * (case, model, repeat): every run falls in exactly one slice, and a slice stays the same while
 * the file, the models and the repeat count do.
 */
export function shardOf<T>(runs: T[], shard: Shard): T[] {
  const from = Math.floor(((shard.index - 1) * runs.length) / shard.count);
  const to = Math.floor((shard.index * runs.length) / shard.count);
  return runs.slice(from, to);
}

/** The messages of a case's turn: its `prompt` as a user message, or its `messages`. */
function caseMessages(testCase: EvalCase): ChatBody["messages"] {
  return testCase.prompt !== undefined
    ? [{ role: "user", content: testCase.prompt }]
    : testCase.messages!;
}

/** Problems of the file's references and messages against the config, at their paths. */
function referenceProblems(
  service: Service,
  file: EvalFile,
  options: EvalOptions,
): ErrorDetail[] {
  const config = service.config.config;
  const at = (path: string) => [options.pathPrefix, path].filter(Boolean).join(".");
  const problems: ErrorDetail[] = [];
  const workspaceId = file.workspace ?? config.activeWorkspaceId;
  if (!config.workspaces.some((workspace) => workspace.id === workspaceId)) {
    problems.push({
      path: at("workspace"),
      message: file.workspace ? `no workspace has id "${file.workspace}"` : "the config has none",
    });
  }
  const models = options.models ?? file.models ?? [];
  const modelsPath = options.models ? "models" : at("models");
  models.forEach((id, index) => {
    if (!config.llms.some((profile) => profile.id === id)) {
      problems.push({ path: `${modelsPath}.${index}`, message: `no model profile has id "${id}"` });
    }
  });
  file.cases.forEach((testCase, caseIndex) => {
    testCase.messages?.forEach((message, index) => {
      const parsed = modelMessageSchema.safeParse(message);
      if (!parsed.success) {
        problems.push(
          ...detailsFromIssues(parsed.error.issues, at(`cases.${caseIndex}.messages.${index}`)),
        );
      }
    });
  });
  return problems;
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
  const problems = referenceProblems(service, file, options);
  if (problems.length > 0) throw invalidEval(problems);
  const config = service.config.config;
  const workspace = file.workspace ?? config.activeWorkspaceId!;
  const ids: (string | undefined)[] = options.models ?? file.models ?? [undefined];
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
  return {
    workspace,
    models,
    runs,
    run: (runOptions = {}) =>
      runAll(service, file, { ...options, ...runOptions, workspace, models, runs }),
  };
}

interface RunAll extends EvalOptions {
  workspace: string;
  models: string[];
  runs: RunKey[];
  signal?: AbortSignal;
  onProgress?: (line: EvalProgress) => void;
}

/** One turn of one run, judged. A turn that cannot start fails the run with the reason. */
async function runOne(
  service: Service,
  testCase: EvalCase,
  key: RunKey,
  context: { workspace: string; signal: AbortSignal; runIds: Set<string> },
): Promise<RunResult> {
  const started = performance.now();
  const chunks: ChatChunk[] = [];
  try {
    const chat = prepareChat(service, {
      messages: caseMessages(testCase),
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
  const verdict = judge(chunks, testCase.expect);
  return {
    case: testCase.name,
    model: key.model,
    run: key.run,
    passed: verdict.passed,
    reasons: verdict.reasons,
    tokens: verdict.facts.tokens,
    durationMs: Math.round(performance.now() - started),
    chunks,
  };
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
      try {
        service.interactions.answer(interaction.id, { approved: approve });
      } catch {
        // Already settled: the turn ended first.
      }
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

/** Runs the planned runs, at most `concurrency` at a time, and builds the report. */
async function runAll(service: Service, file: EvalFile, plan: RunAll): Promise<EvalReport> {
  const abort = new AbortController();
  const onAbort = () => abort.abort(plan.signal?.reason);
  if (plan.signal?.aborted) onAbort();
  plan.signal?.addEventListener("abort", onAbort, { once: true });
  const runIds = new Set<string>();
  const stopAnswering = answerApprovals(service, runIds, plan.approve === "all");
  const results: RunResult[] = [];
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
  return buildReport(
    { workspace: plan.workspace, models: plan.models, ...(plan.shard && { shard: plan.shard }) },
    results,
    order,
  );
}
