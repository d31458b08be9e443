/**
 * Running an eval: every case × model × repeat is one run on the service (a chat turn, or the
 * turns of a conversation: `run_case.ts`), in process with a concurrency limit, gathered into a
 * report that is kept.
 */
import { resolveChat } from "../chat/request.ts";
import type { Service } from "../service.ts";
import type { EvalProgress, EvalShard } from "../../wire/evals.ts";
import { referenceProblems } from "./check.ts";
import { type EvalFile, invalidEval } from "./file.ts";
import { buildReport, type RunResult } from "./report.ts";
import { type RunKey, runOne } from "./run_case.ts";
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
  // One trace per eval run when telemetry is on: each case's turns are children of its span.
  const span = service.telemetry.startSpan(`eval ${plan.workspace}`, {
    attributes: {
      "lass.eval.workspace": plan.workspace,
      "lass.eval.models": plan.models,
      "lass.eval.runs": plan.runs.length,
    },
  });
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
        span,
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
    span?.set({ "lass.eval.passed": results.filter((result) => result.passed).length });
  } catch (error) {
    abort.abort(error);
    span?.end({ type: "eval_error", message: (error as Error).message });
    throw error;
  } finally {
    span?.end(abort.signal.aborted ? { type: "aborted" } : undefined);
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
