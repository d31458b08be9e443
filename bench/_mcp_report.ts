/** The MCP bench's report: the tool-call, trace and connect tables, the goals, and a JSON line. */
import type { Latency } from "./_turns.ts";

/** One server's calls: each side's latency over all its blocks, and the rounds' medians. */
export interface CallRow {
  label: string;
  era: string;
  direct: Latency;
  lass: Latency;
  /** The median over rounds of (Lass's block p50 - the direct block's p50). */
  addedP50Ms: number;
  /** The same less the round's HTTP floor block p50: what Lass itself adds. */
  lassPartP50Ms: number;
  /** The median over rounds of (the bare hop's block p50 - the direct block's p50). */
  hopAddedP50Ms: number;
}

/** Connect times of one spec: `auto` (a first start), `legacy`, and for stdio `kept`. */
export interface ConnectTimes {
  auto: number;
  legacy: number;
  /** Under `auto` with the era an earlier start kept (stdio only: the manager keeps no other). */
  kept?: number;
}

/** One traced server's throughput with the wire trace on and off. */
export interface TraceRow {
  label: string;
  on: number;
  off: number;
  ratio: number;
}

/** How the bench ran, and its goals, as the report states them. */
export interface ReportSettings {
  callRounds: number;
  callBlock: number;
  tracePairs: number;
  traceBlockCalls: number;
  goalAddedP50Ms: number;
  goalTraceCost: number;
}

/** Prints the tables, the goals and one JSON line of everything. */
export function report(
  rows: CallRow[],
  traceRows: TraceRow[],
  connects: Record<string, ConnectTimes>,
  settings: ReportSettings,
): void {
  if (rows.length > 0) {
    console.log(
      `Tool calls: ${settings.callRounds} rounds of a block of ${settings.callBlock} sequential calls to the ` +
        `direct client, through Lass, to the HTTP floor (GET /api/health on Lass through the ` +
        `same client) and through the bare hop (Deno.serve in front of the same client, in a ` +
        `process of its own: _bare_hop.ts), in rotating order (ms). p50/p99 over all blocks; ` +
        `"added" is the median over rounds of Lass's block p50 less the direct one's, "part" ` +
        `that less the floor's, "hop" the bare hop's less the direct one's`,
    );
    console.log(
      "server                      direct p50  direct p99   Lass p50    Lass p99   added p50  " +
        "part p50   hop p50  era",
    );
  }
  for (const row of rows) {
    console.log(
      `${row.label.padEnd(26)}${row.direct.p50Ms.toFixed(3).padStart(11)}${
        row.direct.p99Ms.toFixed(3).padStart(12)
      }${row.lass.p50Ms.toFixed(3).padStart(11)}${row.lass.p99Ms.toFixed(3).padStart(12)}${
        row.addedP50Ms.toFixed(3).padStart(12)
      }${row.lassPartP50Ms.toFixed(3).padStart(10)}${
        row.hopAddedP50Ms.toFixed(3).padStart(10)
      }  ${row.era}`,
    );
  }
  console.log(
    `\nTool-call throughput, wire trace on against trace: false (calls/s, medians of ` +
      `${settings.tracePairs} pairs of blocks of ${settings.traceBlockCalls} sequential calls; the ratio is the ` +
      `median of the pairs' ratios). "session": Lass's own client on the in-process demo, no ` +
      `HTTP, one sink switched on and off: the recording's cost against a call of about 0.1 ms`,
  );
  for (const row of traceRows) {
    console.log(
      `  ${row.label.padEnd(38)} on ${row.on.toFixed(0).padStart(6)}  off ${
        row.off.toFixed(0).padStart(6)
      }  ratio ${row.ratio.toFixed(3)}  cost ${((1 - row.ratio) * 100).toFixed(1)}%`,
    );
  }
  if (Object.keys(connects).length > 0) {
    console.log(
      "\nConnect, median (ms): auto (a first start) and, on stdio, auto with the era kept by an " +
        "earlier start, against legacy",
    );
  }
  for (const [label, { auto, legacy, kept }] of Object.entries(connects)) {
    const keptText = kept === undefined
      ? ""
      : `  kept ${kept.toFixed(1).padStart(8)}  ratio ${(kept / legacy).toFixed(2)}`;
    console.log(
      `  ${label.padEnd(30)} auto ${auto.toFixed(1).padStart(8)}  legacy ${
        legacy.toFixed(1).padStart(8)
      }  ratio ${(auto / legacy).toFixed(2)}${keptText}`,
    );
  }
  console.log("\nGoals (informational):");
  for (const { label, addedP50Ms, lassPartP50Ms, hopAddedP50Ms } of rows) {
    console.log(
      `  ${addedP50Ms <= settings.goalAddedP50Ms ? "PASS" : "FAIL"}  ${label}: added p50 <= ` +
        `${settings.goalAddedP50Ms} ms (${addedP50Ms.toFixed(3)} ms; Lass's part ` +
        `${lassPartP50Ms.toFixed(3)} ms; the bare hop adds ${hopAddedP50Ms.toFixed(3)} ms)`,
    );
  }
  for (const row of traceRows.filter((row) => row.label.endsWith("Lass API"))) {
    console.log(
      `  ${
        row.ratio >= 1 - settings.goalTraceCost ? "PASS" : "FAIL"
      }  ${row.label}: recording the wire ` +
        `costs <= ${settings.goalTraceCost * 100}% of throughput (${
          ((1 - row.ratio) * 100).toFixed(1)
        }%)`,
    );
  }
  console.log(
    JSON.stringify({
      calls: rows,
      traceThroughput: traceRows,
      connectMedianMs: connects,
    }),
  );
}
