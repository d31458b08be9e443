/** The report of `bench/chat_bench.ts`: its result shapes, its tables and its goals. */
import { row } from "./_stats.ts";
import type { Latency } from "./_turns.ts";

/** How `bench/chat_bench.ts` runs, as its tables describe it. */
export interface ChatBenchPlan {
  turnWarmup: number;
  turnReps: number;
  turnsPerRep: number;
  concurrentStreams: number;
  longDeltas: number;
  longReps: number;
  goalAddedFirstTextMs: number;
}

/** First-text and total latency of one side of a sequential scenario. */
export interface TurnStats {
  firstText: Latency;
  total: Latency;
  /** How many tools the model was offered. */
  tools: number;
}

/** One sequential scenario, both sides, and what Lass adds at p50. */
export interface ScenarioResult {
  direct: TurnStats;
  lass: TurnStats;
  addedFirstTextP50Ms: number;
  addedTotalP50Ms: number;
}

/** One burst of concurrent streams on the demo model. */
export interface BurstResult {
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
export interface ThroughputResult {
  chunks: number;
  seconds: number;
  chunksPerSecond: number;
  textMbPerSecond: number;
  wireMbPerSecond: number;
}

/** Milliseconds as printed. */
const ms = (value: number) => value.toFixed(3);

/** Prints the table of (a). */
function printTurns(plan: ChatBenchPlan, results: Record<string, ScenarioResult>): void {
  const widths = [24, 14, 14, 10, 10, 6];
  console.log(
    `\n(a) Sequential turns, fake OpenAI-compatible vendor (no delay between chunks): ` +
      `${plan.turnReps} interleaved reps × ${plan.turnsPerRep} turns per side after ${plan.turnWarmup} ` +
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
function printBursts(
  plan: ChatBenchPlan,
  results: Record<string, BurstResult>,
  startRssMb: number,
): void {
  const widths = [22, 8, 6, 9, 9, 9, 9, 8, 10, 9];
  console.log(
    `\n(b) ${plan.concurrentStreams} concurrent chat streams, demo model and demo tool server ` +
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
function printThroughput(
  plan: ChatBenchPlan,
  result: { direct: ThroughputResult; lass: ThroughputResult },
): void {
  const widths = [10, 8, 9, 10, 10, 10];
  console.log(
    `\n(c) One long answer of ${plan.longDeltas} text deltas from the fake vendor, best of ${plan.longReps} ` +
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
  plan: ChatBenchPlan,
  turns: Record<string, ScenarioResult>,
  bursts: Record<string, BurstResult>,
): void {
  const line = (pass: boolean, text: string) => console.log(`  ${pass ? "PASS" : "FAIL"}  ${text}`);
  console.log("\nGoals (informational):");
  for (const [name, result] of Object.entries(turns)) {
    const added = result.addedFirstTextP50Ms;
    line(
      added < plan.goalAddedFirstTextMs,
      `${name}: first text chunk added p50 < ${plan.goalAddedFirstTextMs} ms (${ms(added)} ms)`,
    );
  }
  for (const [prompt, result] of Object.entries(bursts)) {
    line(
      result.finished === plan.concurrentStreams && result.failed === 0,
      `${JSON.stringify(prompt)}: all ${plan.concurrentStreams} concurrent streams finish ` +
        `(${result.finished} finished, ${result.failed} failed)`,
    );
  }
}

/** Prints the tables of (a), (b) and (c) and the goals. */
export function printReport(
  plan: ChatBenchPlan,
  report: {
    turns: Record<string, ScenarioResult>;
    bursts: Record<string, BurstResult>;
    startRssMb: number;
    throughput: { direct: ThroughputResult; lass: ThroughputResult };
  },
): void {
  printTurns(plan, report.turns);
  printBursts(plan, report.bursts, report.startRssMb);
  printThroughput(plan, report.throughput);
  printGoals(plan, report.turns, report.bursts);
}
