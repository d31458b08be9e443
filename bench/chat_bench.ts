/**
 * Benchmarks `POST /api/chat` on the real server against `streamText` called in this process,
 * both streaming from the same fake OpenAI-compatible vendor; then 200 concurrent chat streams on
 * the demo model, and the chunk throughput of one long answer.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { isStepCount, type ModelMessage, streamText, tool, type ToolSet } from "ai";
import { z } from "zod";
import {
  type FakeTurn,
  type FakeVendor,
  type RecordedRequest,
  startFakeVendor,
  VENDOR_PREFIXES,
} from "../tests/fixtures/fake_vendors.ts";
import { BENCH_TOKEN as TOKEN, startLassProcess } from "./_lass_process.ts";
import { rssMb, watchPeakRss } from "./_proc.ts";
import { round } from "./_stats.ts";
import {
  type BurstResult,
  type ChatBenchPlan,
  printReport,
  type ScenarioResult,
  type ThroughputResult,
  type TurnStats,
} from "./_chat_report.ts";
import { emptyTiming, latency, noteText, readChat, type TurnTiming } from "./_turns.ts";
import { DEMO_LLM } from "./_demo_llm.ts";

const FAKE_KEY = "fake-key";
const FAKE_MODEL = "fake-large";

/** Sequential turns: warm-up per side, then reps of turns per side, baseline and real interleaved. */
const TURN_WARMUP = 30;
const TURN_REPS = 10;
const TURNS_PER_REP = 40;
const CONCURRENT_STREAMS = 200;
const LONG_DELTAS = 20_000;
const LONG_REPS = 5;
const STREAM_TIMEOUT_MS = 60_000;

const GOAL_ADDED_FIRST_TEXT_MS = 1;

/** The figures above, as the report describes the run. */
const PLAN: ChatBenchPlan = {
  turnWarmup: TURN_WARMUP,
  turnReps: TURN_REPS,
  turnsPerRep: TURNS_PER_REP,
  concurrentStreams: CONCURRENT_STREAMS,
  longDeltas: LONG_DELTAS,
  longReps: LONG_REPS,
  goalAddedFirstTextMs: GOAL_ADDED_FIRST_TEXT_MS,
};
/** Every demo tool but `add` (disabled on the tool server of the one-tool scenario). */
const DEMO_TOOLS_BUT_ADD = [
  "echo",
  "get_weather",
  "current_time",
  "random_number",
  "slow_count",
  "fail",
  "ask_user",
  "summarize_with_model",
  "show_dashboard",
  "dashboard_refresh",
  "legacy_ui_card",
  "a2ui_form",
];

const SHORT_TEXT = ["The", " sum", " of", " 2", " and", " 3", " is", " 5", "."];
const LONG_TEXT = Array.from({ length: LONG_DELTAS }, (_, i) => `w${i % 1000} `);
const PLAIN_PROMPT = "hello";
const TOOL_PROMPT = "please add 2 and 3";
const LONG_PROMPT = "tell me a long story";

/** A sequential scenario of (a): the workspace on Lass, the prompt, and the direct tools. */
interface Scenario {
  name: string;
  workspaceId: string;
  prompt: string;
  tools?: ToolSet;
  /** Tool results a correct turn has. */
  toolResults: number;
}

/** The server under test. */
interface Lass {
  pid: number;
  chatUrl: string;
  stop(): Promise<void>;
}

/** The direct side's stand-in for the demo tool server's `add`, as the model sees it. */
const DIRECT_TOOLS: ToolSet = {
  one__add: tool({
    description: "Adds two numbers and returns the sum.",
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => ({ sum: a + b }),
  }),
};

/** The scenarios of (a): a plain answer, and one tool call then an answer. */
const SCENARIOS: Scenario[] = [
  { name: "no tools", workspaceId: "fake", prompt: PLAIN_PROMPT, toolResults: 0 },
  {
    name: "one tool call",
    workspaceId: "fake-tools",
    prompt: TOOL_PROMPT,
    tools: DIRECT_TOOLS,
    toolResults: 1,
  },
];

/**
 * The fake's answer: a tool call for the tool prompt, text after a tool result, long or short text.
 * No `chunkDelayMs`: the fake streams its chunks back to back.
 */
function fakeTurn(request: RecordedRequest): FakeTurn {
  const body = request.body as { messages?: { role: string; content?: unknown }[] } | null;
  const last = body?.messages?.at(-1);
  if (last?.role === "tool") return { text: SHORT_TEXT };
  if (last?.content === TOOL_PROMPT) {
    return { toolCalls: [{ name: "one__add", args: { a: 2, b: 3 } }] };
  }
  return { text: last?.content === LONG_PROMPT ? LONG_TEXT : SHORT_TEXT };
}

/** The config: the fake and the demo model, the demo tool server, one workspace per use. */
function lassConfig(fakeUrl: string): Record<string, unknown> {
  const workspace = (id: string, llmId: string, mcpServerIds: string[]) => ({
    id,
    name: id,
    llmId,
    mcpServerIds,
    generativeUi: false,
  });
  return {
    llms: [
      {
        id: "fake",
        name: "Fake",
        provider: "compatible-api",
        model: FAKE_MODEL,
        baseURL: fakeUrl + VENDOR_PREFIXES.compatible,
        apiKey: "env:FAKE_KEY",
      },
      DEMO_LLM,
    ],
    mcpServers: [
      { id: "demo", name: "Demo", transport: "stdio", command: "service:demo" },
      // The same server with only `add` offered, so both sides of (a) offer one tool.
      {
        id: "one",
        name: "Demo, add only",
        transport: "stdio",
        command: "service:demo",
        disabledTools: DEMO_TOOLS_BUT_ADD,
      },
    ],
    workspaces: [
      workspace("fake", "fake", []),
      workspace("fake-tools", "fake", ["one"]),
      workspace("demo", "demo", ["demo"]),
    ],
    activeWorkspaceId: "fake",
  };
}

/** One turn through `POST /api/chat` on a keep-alive `fetch` connection. */
async function lassTurn(lass: Lass, workspaceId: string, prompt: string): Promise<TurnTiming> {
  const started = performance.now();
  const response = await fetch(lass.chatUrl, {
    method: "POST",
    headers: { "x-service-token": TOKEN, "content-type": "application/json" },
    body: JSON.stringify({ workspaceId, messages: [{ role: "user", content: prompt }] }),
    signal: AbortSignal.timeout(STREAM_TIMEOUT_MS),
  });
  if (response.status !== 200) {
    throw new Error(`POST /api/chat: HTTP ${response.status} ${await response.text()}`);
  }
  return await readChat(response, started);
}

/** The fake vendor as the server's `compatible-api` profile builds it. */
function directModel(fake: FakeVendor): LanguageModelV4 {
  return createOpenAICompatible({
    baseURL: fake.url + VENDOR_PREFIXES.compatible,
    name: "fake",
    apiKey: FAKE_KEY,
    includeUsage: true,
  }).chatModel(FAKE_MODEL);
}

/** The same turn with `streamText` in this process, iterating `result.stream`. */
async function directTurn(
  model: LanguageModelV4,
  prompt: string,
  tools?: ToolSet,
): Promise<TurnTiming> {
  const timing = emptyTiming();
  const started = performance.now();
  const messages: ModelMessage[] = [{ role: "user", content: prompt }];
  const result = streamText({
    model,
    messages,
    ...(tools && { tools }),
    stopWhen: isStepCount(5),
    maxRetries: 1,
    onError: () => {},
  });
  for await (const part of result.stream) {
    const at = performance.now() - started;
    if (Number.isNaN(timing.firstChunkMs)) timing.firstChunkMs = at;
    if (part.type === "text-delta" && part.text !== "") noteText(timing, part.text, at);
    if (part.type === "tool-result") timing.toolResults++;
    if (part.type === "error") timing.error ??= String(part.error);
  }
  await result.responseMessages;
  timing.totalMs = performance.now() - started;
  timing.finished = timing.error === undefined;
  return timing;
}

/** Throws when a warm-up turn did not do what the scenario scripts: the figures would be wrong. */
function checkTurn(side: string, scenario: Scenario, timing: TurnTiming): void {
  const ok = timing.finished && !timing.error && timing.textChunks > 0 &&
    timing.toolResults === scenario.toolResults;
  if (!ok) {
    throw new Error(`${side} ${scenario.name}: unexpected turn ${JSON.stringify(timing)}`);
  }
}

/** p50 and p99 of first text and total time over a side's turns. */
function turnStats(timings: TurnTiming[], tools: number): TurnStats {
  return {
    firstText: latency(timings.map((t) => t.firstTextMs)),
    total: latency(timings.map((t) => t.totalMs)),
    tools,
  };
}

/** Runs `turn` `count` times, one after the other. */
async function sequential(count: number, turn: () => Promise<TurnTiming>): Promise<TurnTiming[]> {
  const timings: TurnTiming[] = [];
  for (let i = 0; i < count; i++) timings.push(await turn());
  return timings;
}

/** Part (a) for one scenario: warm-up, then TURN_REPS reps per side, interleaved, pooled. */
async function benchScenario(
  scenario: Scenario,
  lass: Lass,
  fake: FakeVendor,
  model: LanguageModelV4,
): Promise<ScenarioResult> {
  const direct = () => directTurn(model, scenario.prompt, scenario.tools);
  const real = () => lassTurn(lass, scenario.workspaceId, scenario.prompt);
  for (const timing of await sequential(TURN_WARMUP, direct)) checkTurn("direct", scenario, timing);
  for (const timing of await sequential(TURN_WARMUP, real)) checkTurn("Lass", scenario, timing);
  const timings = { direct: [] as TurnTiming[], lass: [] as TurnTiming[] };
  for (let rep = 0; rep < TURN_REPS; rep++) {
    timings.direct.push(...await sequential(TURNS_PER_REP, direct));
    timings.lass.push(...await sequential(TURNS_PER_REP, real));
    // The fake records every request: keep its memory flat.
    fake.requests.length = 0;
  }
  const stats = {
    direct: turnStats(timings.direct, Object.keys(scenario.tools ?? {}).length),
    lass: turnStats(timings.lass, timings.lass[0].tools ?? NaN),
  };
  return {
    ...stats,
    addedFirstTextP50Ms: stats.lass.firstText.p50Ms - stats.direct.firstText.p50Ms,
    addedTotalP50Ms: stats.lass.total.p50Ms - stats.direct.total.p50Ms,
  };
}

/** One turn of a burst: a failed request counts as a turn that never finished. */
function burstTurn(lass: Lass, prompt: string): Promise<TurnTiming> {
  return lassTurn(lass, "demo", prompt).catch((error) => ({
    ...emptyTiming(),
    error: (error as Error).message,
  }));
}

/** Part (b): CONCURRENT_STREAMS chat streams at once on the demo model, after one warm-up burst. */
async function benchBurst(lass: Lass, prompt: string): Promise<BurstResult> {
  const burst = () =>
    Promise.all(Array.from({ length: CONCURRENT_STREAMS }, () => burstTurn(lass, prompt)));
  await burst();
  const rssBeforeMb = await rssMb(lass.pid, { alone: true });
  const rss = await watchPeakRss(lass.pid, { alone: true });
  const started = performance.now();
  const timings = await burst();
  const wallMs = performance.now() - started;
  const peakRssMb = await rss.stop();
  const failures = timings.filter((t) => !t.finished || t.error !== undefined);
  const errors = new Set(failures.map((t) => t.error ?? "ended without a finish chunk"));
  return {
    finished: timings.filter((t) => t.finished).length,
    failed: failures.length,
    errors: [...errors].slice(0, 3),
    firstChunk: latency(timings.map((t) => t.firstChunkMs)),
    firstText: latency(timings.map((t) => t.firstTextMs)),
    wallMs,
    rssBeforeMb,
    peakRssMb,
  };
}

/** Rates of one long answer. */
function throughputOf(timing: TurnTiming): ThroughputResult {
  const seconds = timing.totalMs / 1000;
  return {
    chunks: timing.textChunks,
    seconds,
    chunksPerSecond: timing.textChunks / seconds,
    textMbPerSecond: timing.textBytes / 1e6 / seconds,
    wireMbPerSecond: timing.wireBytes / 1e6 / seconds,
  };
}

/** Part (c): the long answer, LONG_REPS times per side interleaved; the best rep of each side. */
async function benchLongAnswer(
  lass: Lass,
  fake: FakeVendor,
  model: LanguageModelV4,
): Promise<{ direct: ThroughputResult; lass: ThroughputResult }> {
  const best = (a: ThroughputResult, b: ThroughputResult) =>
    b.chunksPerSecond > a.chunksPerSecond ? b : a;
  const runs = { direct: [] as ThroughputResult[], lass: [] as ThroughputResult[] };
  for (let rep = 0; rep < LONG_REPS; rep++) {
    runs.direct.push(throughputOf(await directTurn(model, LONG_PROMPT)));
    runs.lass.push(throughputOf(await lassTurn(lass, "fake", LONG_PROMPT)));
    fake.requests.length = 0;
  }
  for (const run of [...runs.direct, ...runs.lass]) {
    if (run.chunks !== LONG_DELTAS) {
      throw new Error(`long answer: ${run.chunks} of ${LONG_DELTAS} chunks`);
    }
  }
  return { direct: runs.direct.reduce(best), lass: runs.lass.reduce(best) };
}

/** Runs (a), (b) and (c) against one server and one fake vendor, then prints the report. */
async function main(): Promise<void> {
  console.log(`Lass chat bench: deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} CPUs`);
  // The providers would report warnings on every call.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
  const dir = await Deno.makeTempDir({ prefix: "lass-chat-bench-" });
  const fake = await startFakeVendor();
  fake.script(fakeTurn);
  let lass: Lass | undefined;
  try {
    const process = await startLassProcess(dir, lassConfig(fake.url), { FAKE_KEY });
    lass = { pid: process.pid, chatUrl: `${process.base}/api/chat`, stop: process.stop };
    const startRssMb = await rssMb(lass.pid, { alone: true });
    const model = directModel(fake);
    const turns: Record<string, ScenarioResult> = {};
    for (const scenario of SCENARIOS) {
      console.error(`(a) ${scenario.name}: direct and Lass interleaved...`);
      turns[scenario.name] = await benchScenario(scenario, lass, fake, model);
    }
    const bursts: Record<string, BurstResult> = {};
    for (const prompt of [PLAIN_PROMPT, TOOL_PROMPT]) {
      console.error(`(b) ${CONCURRENT_STREAMS} concurrent streams: ${JSON.stringify(prompt)}...`);
      bursts[prompt] = await benchBurst(lass, prompt);
    }
    console.error(`(c) long answer, ${LONG_DELTAS} deltas...`);
    const throughput = await benchLongAnswer(lass, fake, model);
    printReport(PLAN, { turns, bursts, startRssMb, throughput });
    console.log();
    console.log(JSON.stringify(
      {
        date: new Date().toISOString(),
        deno: Deno.version.deno,
        cpus: navigator.hardwareConcurrency,
        turns,
        bursts,
        startRssMb,
        throughput,
      },
      (_key, value) => typeof value === "number" ? round(value, 3) : value,
    ));
  } finally {
    await lass?.stop();
    await fake.close();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exitCode = 1;
  }
}
