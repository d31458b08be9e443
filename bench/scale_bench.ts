/**
 * The crowd: 1,000 concurrent chat turns on the demo model, each calling `add` on the demo tool
 * server, against the real server in its own process. Reports the CPU per turn (Lass and its
 * children), first-chunk p50/p99, the wall time of the burst and the peak RSS. The baseline in the
 * same run is a bare `Deno.serve` answering the same NDJSON lines (`_ndjson_server.ts`): the floor
 * of HTTP and streaming under a turn. Bursts alternate, baseline first, after one warm-up each.
 * Each turn's client is a raw socket (`_raw_stream.ts`): with `fetch`, the client process took
 * more CPU than the baseline server and its own queueing made most of the first-chunk times.
 * Besides, the model loops alone run the same turns in a process of their own (`_sdk_floor.ts`,
 * one at a time and 8 at a time): the AI SDK's `streamText`, and Lass's step loop, the CPU a turn
 * costs before the rest of Lass adds anything. Figures are medians of the reps but the peak RSS,
 * the highest of them. Last, the RSS Lass comes back to once it has gone quiet.
 *
 * `deno run --allow-all bench/scale_bench.ts [--turns 1000] [--reps 5]`
 */
import { BENCH_TOKEN, startLassProcess } from "./_lass_process.ts";
import { emptyTiming, type Latency, latency, readChatBody, type TurnTiming } from "./_turns.ts";
import { rawStreamingPost } from "./_raw_stream.ts";
import { median, round, row } from "./_stats.ts";
import { cpuMs, flag, rssMb, watchPeakRss } from "./_proc.ts";
import { DEMO_LLM } from "./_demo_llm.ts";

const PROMPT = "Add 2 and 3 with a tool";
const WARMUP_TURNS = 100;
const READY_TIMEOUT_MS = 30_000;
const TURN_TIMEOUT_MS = 120_000;
/** The goals of the issue; reported, never asserted. */
const GOALS = { cpuPerTurnMs: 2, firstChunkP99Ms: 250, peakRssMb: 400 };

/** What one burst of concurrent turns cost and how its clients saw it. */
interface Burst {
  finished: number;
  failed: number;
  errors: string[];
  cpuPerTurnMs: number;
  firstChunk: Latency;
  wallMs: number;
  peakRssMb: number;
}

/**
 * Lass's RSS once it has gone quiet after the bursts: read until it fell below three quarters of
 * the last burst's peak (the heap watcher collected) or 15 s passed since `since`.
 */
async function rssOnceQuiet(
  pid: number,
  peakMb: number,
  since: number,
): Promise<{ rssMb: number; afterMs: number }> {
  while (true) {
    const now = await rssMb(pid);
    const afterMs = performance.now() - since;
    if (now < peakMb * 0.75 || afterMs > 15_000) return { rssMb: now, afterMs };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A server under test: where its turns go and which process runs it. */
interface Side {
  name: string;
  pid: number;
  url: string;
  /** The body of one turn's request. */
  body: string;
  /** Whether a finished turn did what it should (a tool result for Lass). */
  ok(timing: TurnTiming): boolean;
  stop(): Promise<void>;
}

/**
 * One turn, on a raw socket of its own (far lighter for the client than `fetch`, so the burst
 * measures the servers); a failed request counts as a turn that never finished.
 */
async function turn(side: Side): Promise<TurnTiming> {
  const started = performance.now();
  try {
    const response = await rawStreamingPost(
      side.url,
      {
        "x-service-token": BENCH_TOKEN,
        "content-type": "application/json",
      },
      side.body,
      AbortSignal.timeout(TURN_TIMEOUT_MS),
    );
    if (response.status !== 200) {
      let text = "";
      for await (const bytes of response.body) text += new TextDecoder().decode(bytes);
      throw new Error(`HTTP ${response.status} ${text.slice(0, 200)}`);
    }
    return await readChatBody(response.body, started);
  } catch (error) {
    return { ...emptyTiming(), error: (error as Error).message };
  }
}

/** `count` turns at once on one side, with its CPU and memory over the burst. */
async function burst(side: Side, count: number): Promise<Burst> {
  const rss = await watchPeakRss(side.pid);
  const cpuBefore = await cpuMs(side.pid);
  const started = performance.now();
  const timings = await Promise.all(Array.from({ length: count }, () => turn(side)));
  const wallMs = performance.now() - started;
  const cpu = await cpuMs(side.pid) - cpuBefore;
  const peakRssMb = await rss.stop();
  const failures = timings.filter((t) => !t.finished || t.error !== undefined || !side.ok(t));
  return {
    finished: count - failures.length,
    failed: failures.length,
    errors: [...new Set(failures.map((t) => t.error ?? `unexpected turn ${JSON.stringify(t)}`))]
      .slice(0, 3),
    cpuPerTurnMs: cpu / count,
    firstChunk: latency(timings.map((t) => t.firstChunkMs)),
    wallMs,
    peakRssMb,
  };
}

/** The NDJSON lines of one Lass turn, for the baseline to answer with. */
async function turnLines(url: string, body: string): Promise<string[]> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "x-service-token": BENCH_TOKEN, "content-type": "application/json" },
    body,
  });
  return (await response.text()).split("\n").filter(Boolean);
}

/** Starts the baseline server on the lines of a Lass turn. */
async function startBaseline(dir: string, lines: string[]): Promise<Side> {
  const file = `${dir}/lines.json`;
  await Deno.writeTextFile(file, JSON.stringify(lines));
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net",
      "--allow-read",
      new URL("_ndjson_server.ts", import.meta.url).pathname,
      file,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!/ready (\d+)/.test(text)) {
    const { value, done } = await reader.read();
    if (done || Date.now() > deadline) {
      throw new Error(`the baseline server did not start: ${text}`);
    }
    text += value;
  }
  const port = Number(/ready (\d+)/.exec(text)![1]);
  return {
    name: "baseline",
    pid: child.pid,
    url: `http://127.0.0.1:${port}/`,
    body: JSON.stringify({ messages: [{ role: "user", content: PROMPT }] }),
    ok: (timing) => timing.finished,
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
      reader.releaseLock();
      await child.stdout.cancel().catch(() => {});
    },
  };
}

/**
 * CPU per turn of a model loop alone (`streamText`, or Lass's step loop), `concurrency` turns at
 * a time, in a process of its own.
 */
async function sdkFloor(
  turns: number,
  concurrency: number,
  loop: "stream-text" | "steps",
): Promise<number> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("_sdk_floor.ts", import.meta.url).pathname,
      String(turns),
      String(concurrency),
      loop,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error("the AI SDK floor run failed");
  return JSON.parse(new TextDecoder().decode(output.stdout)).cpuPerTurnMs;
}

/** The config: the demo model and the demo tool server in one workspace. */
const CONFIG = {
  llms: [DEMO_LLM],
  mcpServers: [{ id: "demo", name: "Demo", transport: "stdio", command: "service:demo" }],
  workspaces: [{
    id: "demo",
    name: "Demo",
    llmId: "demo",
    mcpServerIds: ["demo"],
    generativeUi: false,
  }],
  activeWorkspaceId: "demo",
};

/** The median of each figure over the reps of one side. */
function medianBurst(bursts: Burst[]): Burst {
  const pick = (value: (b: Burst) => number) => median(bursts.map(value));
  return {
    finished: Math.min(...bursts.map((b) => b.finished)),
    failed: Math.max(...bursts.map((b) => b.failed)),
    errors: bursts.flatMap((b) => b.errors).slice(0, 3),
    cpuPerTurnMs: pick((b) => b.cpuPerTurnMs),
    firstChunk: { p50Ms: pick((b) => b.firstChunk.p50Ms), p99Ms: pick((b) => b.firstChunk.p99Ms) },
    wallMs: pick((b) => b.wallMs),
    // The highest of the reps: V8 keeps the heap a burst grew to, so later reps start higher. It
    // grows for four or five bursts before a full collection brings it back (the live heap after
    // one stays near 40-60 MB), hence five reps by default.
    peakRssMb: Math.max(...bursts.map((b) => b.peakRssMb)),
  };
}

async function main(): Promise<void> {
  const turns = flag("--turns", 1000);
  const reps = flag("--reps", 5);
  console.log(`Lass scale bench: deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} CPUs`);
  const dir = await Deno.makeTempDir({ prefix: "lass-scale-bench-" });
  const sides: Side[] = [];
  try {
    const lassProcess = await startLassProcess(dir, CONFIG);
    const lass: Side = {
      name: "Lass",
      pid: lassProcess.pid,
      url: `${lassProcess.base}/api/chat`,
      body: JSON.stringify({ workspaceId: "demo", messages: [{ role: "user", content: PROMPT }] }),
      ok: (timing) => timing.toolResults === 1,
      stop: lassProcess.stop,
    };
    const lines = await turnLines(lass.url, lass.body);
    const baseline = await startBaseline(dir, lines);
    sides.push(baseline, lass);
    const idleRssMb = await rssMb(lass.pid);
    for (const side of sides) {
      console.error(`${side.name}: warm-up, ${WARMUP_TURNS} turns...`);
      const warm = await burst(side, WARMUP_TURNS);
      if (warm.failed > 0) throw new Error(`${side.name} warm-up: ${warm.errors.join("; ")}`);
    }
    const results: Record<string, Burst[]> = { baseline: [], Lass: [] };
    for (let rep = 0; rep < reps; rep++) {
      for (const side of sides) {
        console.error(`${side.name}: ${turns} concurrent turns (rep ${rep + 1} of ${reps})...`);
        results[side.name].push(await burst(side, turns));
      }
    }
    const burstsEnded = performance.now();
    const summary = { baseline: medianBurst(results.baseline), Lass: medianBurst(results.Lass) };
    console.error(`model loops alone: ${turns} turns, 1 and 8 at a time...`);
    const floor = {
      streamText: {
        one: await sdkFloor(turns, 1, "stream-text"),
        eight: await sdkFloor(turns, 8, "stream-text"),
      },
      steps: { one: await sdkFloor(turns, 1, "steps"), eight: await sdkFloor(turns, 8, "steps") },
    };
    const quiet = await rssOnceQuiet(lass.pid, results.Lass.at(-1)!.peakRssMb, burstsEnded);
    const widths = [10, 9, 7, 12, 10, 10, 9, 10];
    console.log(
      `\n${turns} concurrent turns ("${PROMPT}": ${lines.length} NDJSON lines each), median of ` +
        `${reps} interleaved reps (peak RSS: the highest); Lass idle RSS ${
          idleRssMb.toFixed(1)
        } MB`,
    );
    console.log(row(
      ["", "finished", "failed", "CPU/turn ms", "chunk p50", "chunk p99", "wall ms", "peak RSS"],
      widths,
    ));
    for (const [name, b] of Object.entries(summary)) {
      console.log(row([
        name,
        b.finished,
        b.failed,
        b.cpuPerTurnMs.toFixed(2),
        b.firstChunk.p50Ms.toFixed(1),
        b.firstChunk.p99Ms.toFixed(1),
        b.wallMs.toFixed(0),
        `${b.peakRssMb.toFixed(0)} MB`,
      ], widths));
      for (const error of b.errors) console.log(`  failure: ${error}`);
    }
    console.log(
      "Model loops alone (demo model, one local tool, no HTTP or MCP), CPU/turn one at a time " +
        "and 8 at a time (as Lass admits a CPU-bound burst):",
    );
    for (
      const [name, f] of [["AI SDK streamText", floor.streamText], [
        "Lass step loop",
        floor.steps,
      ]] as const
    ) {
      console.log(`  ${name}: ${f.one.toFixed(2)} ms, ${f.eight.toFixed(2)} ms`);
    }
    console.log(
      `Lass RSS once quiet: ${quiet.rssMb.toFixed(0)} MB, ${
        (quiet.afterMs / 1000).toFixed(1)
      } s after its last burst (the heap watcher collects after 5 s of quiet)`,
    );
    const l = summary.Lass;
    console.log(
      `Lass / baseline CPU per turn: ${
        (l.cpuPerTurnMs / summary.baseline.cpuPerTurnMs).toFixed(1)
      }×`,
    );
    const line = (pass: boolean, text: string) =>
      console.log(`  ${pass ? "PASS" : "FAIL"}  ${text}`);
    console.log("\nGoals (informational):");
    line(l.failed === 0, `all ${turns} turns finish with a tool result (${l.finished})`);
    line(
      l.cpuPerTurnMs <= GOALS.cpuPerTurnMs,
      `CPU per turn ≤ ${GOALS.cpuPerTurnMs} ms (${l.cpuPerTurnMs.toFixed(2)})`,
    );
    line(
      l.firstChunk.p99Ms < GOALS.firstChunkP99Ms,
      `first chunk p99 < ${GOALS.firstChunkP99Ms} ms (${l.firstChunk.p99Ms.toFixed(0)})`,
    );
    line(
      l.peakRssMb < GOALS.peakRssMb,
      `peak RSS < ${GOALS.peakRssMb} MB (${l.peakRssMb.toFixed(0)})`,
    );
    console.log();
    console.log(JSON.stringify(
      {
        date: new Date().toISOString(),
        deno: Deno.version.deno,
        turns,
        reps,
        idleRssMb,
        quietRssMb: quiet.rssMb,
        summary,
        sdkFloorCpuPerTurnMs: floor,
        results,
      },
      (_key, value) => typeof value === "number" ? round(value, 3) : value,
    ));
  } finally {
    for (const side of sides.reverse()) await side.stop();
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
