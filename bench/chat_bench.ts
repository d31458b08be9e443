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
const RSS_SAMPLE_MS = 10;

const GOAL_ADDED_FIRST_TEXT_MS = 1;

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

/** What one turn looked like to its client; times in ms from the request (or `streamText`). */
export interface TurnTiming {
  firstChunkMs: number;
  firstTextMs: number;
  totalMs: number;
  textChunks: number;
  /** UTF-8 bytes of the text deltas. */
  textBytes: number;
  /** NDJSON bytes received (0 for the direct side). */
  wireBytes: number;
  toolResults: number;
  /** The tool count of Lass's `start` chunk. */
  tools?: number;
  finished: boolean;
  error?: string;
}

/** p50 and p99 of a list of milliseconds. */
export interface Latency {
  p50Ms: number;
  p99Ms: number;
}

/** First-text and total latency of one side of a sequential scenario. */
interface TurnStats {
  firstText: Latency;
  total: Latency;
  /** How many tools the model was offered. */
  tools: number;
}

/** One sequential scenario, both sides, and what Lass adds at p50. */
interface ScenarioResult {
  direct: TurnStats;
  lass: TurnStats;
  addedFirstTextP50Ms: number;
  addedTotalP50Ms: number;
}

/** One burst of concurrent streams on the demo model. */
interface BurstResult {
  finished: number;
  failed: number;
  errors: string[];
  firstChunk: Latency;
  firstText: Latency;
  wallMs: number;
  rssBeforeMb: number;
  peakRssMb: number;
}

/** The long answer as one run on one side saw it. */
interface ThroughputResult {
  chunks: number;
  seconds: number;
  chunksPerSecond: number;
  textMbPerSecond: number;
  wireMbPerSecond: number;
}

/** The server under test. */
interface Lass {
  pid: number;
  chatUrl: string;
  stop(): Promise<void>;
}

const encoder = new TextEncoder();

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

/** The value at fraction `p` of an ascending list (nearest rank). */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

/** p50 and p99 of the times that were measured (NaN means the turn never got that far). */
export function latency(times: number[]): Latency {
  const sorted = times.filter((t) => !Number.isNaN(t)).sort((a, b) => a - b);
  return { p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99) };
}

/** Rounds for the JSON line. */
export function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

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
      {
        id: "demo",
        name: "Demo",
        provider: "compatible-api",
        model: "demo",
        baseURL: "service:demo",
      },
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

/** A turn before anything arrived. */
export function emptyTiming(): TurnTiming {
  return {
    firstChunkMs: NaN,
    firstTextMs: NaN,
    totalMs: NaN,
    textChunks: 0,
    textBytes: 0,
    wireBytes: 0,
    toolResults: 0,
    finished: false,
  };
}

/** Counts one text delta that arrived `at` ms into the turn. */
function noteText(timing: TurnTiming, text: string, at: number): void {
  if (Number.isNaN(timing.firstTextMs)) timing.firstTextMs = at;
  timing.textChunks++;
  timing.textBytes += encoder.encode(text).byteLength;
}

/** Counts one NDJSON chunk of `POST /api/chat`. */
export function noteChunk(timing: TurnTiming, chunk: Record<string, unknown>, at: number): void {
  if (Number.isNaN(timing.firstChunkMs)) timing.firstChunkMs = at;
  switch (chunk.type) {
    case "start":
      timing.tools = chunk.tools as number;
      break;
    case "text":
      noteText(timing, chunk.text as string, at);
      break;
    case "tool-result":
      timing.toolResults++;
      break;
    case "finish":
      timing.finished = true;
      break;
    case "error":
      timing.error = chunk.message as string;
      break;
  }
}

/** Reads an NDJSON chat response to its end, timing each line from `started`. */
export async function readChat(response: Response, started: number): Promise<TurnTiming> {
  const timing = emptyTiming();
  const decoder = new TextDecoder();
  let rest = "";
  for await (const bytes of response.body!) {
    const at = performance.now() - started;
    timing.wireBytes += bytes.byteLength;
    const lines = (rest + decoder.decode(bytes, { stream: true })).split("\n");
    rest = lines.pop()!;
    for (const line of lines) noteChunk(timing, JSON.parse(line), at);
  }
  timing.totalMs = performance.now() - started;
  return timing;
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

/** A value of `/proc/<pid>/status` in MB (VmRSS, VmHWM). */
export async function statusMb(pid: number, field: "VmRSS" | "VmHWM"): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status);
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/**
 * Tracks a process's peak RSS from now on: resets VmHWM (writing 5 to `clear_refs`) when allowed,
 * and samples VmRSS besides; `stop` gives the peak of both.
 */
export async function watchPeakRss(pid: number): Promise<{ stop(): Promise<number> }> {
  const reset = await Deno.writeTextFile(`/proc/${pid}/clear_refs`, "5").then(
    () => true,
    () => false,
  );
  let peak = 0;
  let sampling = Promise.resolve();
  const timer = setInterval(() => {
    sampling = statusMb(pid, "VmRSS").then((mb) => void (peak = Math.max(peak, mb)));
  }, RSS_SAMPLE_MS);
  return {
    stop: async () => {
      clearInterval(timer);
      await sampling;
      const hwm = reset ? await statusMb(pid, "VmHWM") : 0;
      return Math.max(peak, hwm, await statusMb(pid, "VmRSS"));
    },
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
  const rssBeforeMb = await statusMb(lass.pid, "VmRSS");
  const rss = await watchPeakRss(lass.pid);
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

/** One table row: the first cell left-aligned, the rest right-aligned. */
export function row(cells: (string | number)[], widths: number[]): string {
  return cells.map((cell, i) => {
    const text = String(cell);
    return i === 0 ? text.padEnd(widths[i]) : text.padStart(widths[i]);
  }).join("  ");
}

/** Milliseconds as printed. */
const ms = (value: number) => value.toFixed(3);

/** Prints the table of (a). */
function printTurns(results: Record<string, ScenarioResult>): void {
  const widths = [24, 14, 14, 10, 10, 6];
  console.log(
    `\n(a) Sequential turns, fake OpenAI-compatible vendor (no delay between chunks): ` +
      `${TURN_REPS} interleaved reps × ${TURNS_PER_REP} turns per side after ${TURN_WARMUP} ` +
      `warm-up turns; ms from the request (Lass) or the streamText call (direct)`,
  );
  console.log(
    row(["", "first text p50", "first text p99", "total p50", "total p99", "tools"], widths),
  );
  for (const [name, result] of Object.entries(results)) {
    for (const side of ["direct", "lass"] as const) {
      const stats = result[side];
      console.log(row([
        `${name} ${side === "lass" ? "Lass" : "direct"}`,
        ms(stats.firstText.p50Ms),
        ms(stats.firstText.p99Ms),
        ms(stats.total.p50Ms),
        ms(stats.total.p99Ms),
        stats.tools,
      ], widths));
    }
    console.log(row([
      `${name} added p50`,
      ms(result.addedFirstTextP50Ms),
      "",
      ms(result.addedTotalP50Ms),
      "",
      "",
    ], widths));
  }
}

/** Prints the table of (b). */
function printBursts(results: Record<string, BurstResult>, startRssMb: number): void {
  const widths = [22, 8, 6, 9, 9, 9, 9, 8, 10, 9];
  console.log(
    `\n(b) ${CONCURRENT_STREAMS} concurrent chat streams, demo model and demo tool server ` +
      `(after one warm-up burst); ms from each request. Server RSS after start-up: ` +
      `${startRssMb.toFixed(1)} MB`,
  );
  console.log(row([
    "prompt",
    "finished",
    "failed",
    "chunk p50",
    "chunk p99",
    "text p50",
    "text p99",
    "wall ms",
    "RSS before",
    "peak RSS",
  ], widths));
  for (const [prompt, result] of Object.entries(results)) {
    console.log(row([
      JSON.stringify(prompt),
      result.finished,
      result.failed,
      ms(result.firstChunk.p50Ms),
      ms(result.firstChunk.p99Ms),
      ms(result.firstText.p50Ms),
      ms(result.firstText.p99Ms),
      result.wallMs.toFixed(0),
      `${result.rssBeforeMb.toFixed(1)} MB`,
      `${result.peakRssMb.toFixed(1)} MB`,
    ], widths));
    for (const error of result.errors) console.log(`  failure: ${error}`);
  }
}

/** Prints the table of (c) and the Lass / direct ratio. */
function printThroughput(result: { direct: ThroughputResult; lass: ThroughputResult }): void {
  const widths = [10, 8, 9, 10, 10, 10];
  console.log(
    `\n(c) One long answer of ${LONG_DELTAS} text deltas from the fake vendor, best of ${LONG_REPS} ` +
      `interleaved reps per side`,
  );
  console.log(row(["", "chunks", "seconds", "chunks/s", "text MB/s", "wire MB/s"], widths));
  for (const side of ["direct", "lass"] as const) {
    const r = result[side];
    console.log(row([
      side === "lass" ? "Lass" : "direct",
      r.chunks,
      r.seconds.toFixed(3),
      r.chunksPerSecond.toFixed(0),
      r.textMbPerSecond.toFixed(3),
      side === "lass" ? r.wireMbPerSecond.toFixed(3) : "-",
    ], widths));
  }
  console.log(
    `Lass / direct chunks/s: ${
      (result.lass.chunksPerSecond / result.direct.chunksPerSecond).toFixed(2)
    }`,
  );
}

/** Prints each goal as PASS or FAIL; timing goals are reported, never asserted. */
function printGoals(
  turns: Record<string, ScenarioResult>,
  bursts: Record<string, BurstResult>,
): void {
  const line = (pass: boolean, text: string) => console.log(`  ${pass ? "PASS" : "FAIL"}  ${text}`);
  console.log("\nGoals (informational):");
  for (const [name, result] of Object.entries(turns)) {
    const added = result.addedFirstTextP50Ms;
    line(
      added < GOAL_ADDED_FIRST_TEXT_MS,
      `${name}: first text chunk added p50 < ${GOAL_ADDED_FIRST_TEXT_MS} ms (${ms(added)} ms)`,
    );
  }
  for (const [prompt, result] of Object.entries(bursts)) {
    line(
      result.finished === CONCURRENT_STREAMS && result.failed === 0,
      `${JSON.stringify(prompt)}: all ${CONCURRENT_STREAMS} concurrent streams finish ` +
        `(${result.finished} finished, ${result.failed} failed)`,
    );
  }
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
    const startRssMb = await statusMb(lass.pid, "VmRSS");
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
    printTurns(turns);
    printBursts(bursts, startRssMb);
    printThroughput(throughput);
    printGoals(turns, bursts);
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
