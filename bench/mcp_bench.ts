/**
 * Tool calls through Lass (`POST /api/mcp/:id/call`) against the same v2 client called directly,
 * per protocol era and transport; tool-call throughput with the wire trace on against
 * `trace: false`; and connect times of `auto` (and, on stdio, of the era an earlier start kept)
 * against `legacy`. `--calls-only`, `--trace-only` and `--connects-only` run one part.
 */
import { type EraSetting } from "../core/mcp/session/errors.ts";
import { openSession } from "../core/mcp/session/client.ts";
import { type TransportSpec } from "../core/mcp/session/types.ts";
import { createDemoHandler } from "../core/mcp/demo/server.ts";
import { ToolServerTraces } from "../core/mcp/session/trace.ts";
import { startBenchLass } from "./_mcp_lass.ts";
import { QUIET_HANDLERS, startBareHop } from "./_bare_hop.ts";
import { rawHttpClient } from "./_raw_http.ts";
import { EVERYTHING, startEverything } from "../tests/_everything.ts";
import { median } from "./_stats.ts";
import { blockRounds } from "./_rounds.ts";
import { latency } from "./_turns.ts";
import { type CallRow, type ConnectTimes, report, type TraceRow } from "./_mcp_report.ts";

const MAIN_TS = new URL("../main.ts", import.meta.url).pathname;
const WARMUP = 200;
/**
 * Rounds of blocks of sequential calls: in each, a block to the direct client, one through Lass
 * and one to the HTTP floor, in rotating order. A block's p50 is compared within its round, so a
 * machine that slows down or speeds up mid-run moves both sides (one run of 2,000 calls per side
 * after the other gave added p50s four times apart from run to run).
 */
const CALL_ROUNDS = 40;
const CALL_BLOCK = 100;
const STDIO_CONNECTS = 5;
const HTTP_CONNECTS = 20;
const GOAL_ADDED_P50_MS = 0.3;
/** Recording the wire may cost at most this share of tool-call throughput. */
const GOAL_TRACE_COST = 0.05;
/** Pairs of blocks (trace on, trace off, in turns first); the median of the pairs' ratios counts. */
const TRACE_PAIRS = 80;
const TRACE_BLOCK_CALLS = 100;
/** `--trace-only`: just the trace comparison (a few minutes instead of a quarter of an hour). */
const TRACE_ONLY = Deno.args.includes("--trace-only");
/** `--calls-only`: just the tool calls through Lass against the direct client (a few minutes). */
const CALLS_ONLY = Deno.args.includes("--calls-only");
/** `--connects-only`: just the connect times (a minute or two). */
const CONNECTS_ONLY = Deno.args.includes("--connects-only");

/** The servers both sides call, with their protocol era setting. */
const demoStdio = { command: Deno.execPath(), args: ["run", "-A", MAIN_TS, "demo-server"] };
const everythingStdio = { command: Deno.execPath(), args: ["run", "-A", EVERYTHING, "stdio"] };
const SERVERS = [
  { id: "demo", label: "demo in-process, modern", inProcess: true, era: "auto" },
  { id: "demolegacy", label: "demo in-process, legacy", inProcess: true, era: "legacy" },
  { id: "demostdio", label: "demo stdio, modern", stdio: demoStdio, era: "auto" },
  { id: "demostdiolegacy", label: "demo stdio, legacy", stdio: demoStdio, era: "legacy" },
  { id: "everything", label: "everything stdio, legacy", stdio: everythingStdio, era: "auto" },
] as const;
type Server = (typeof SERVERS)[number];
/** The demo servers measured with the trace on (as configured above) and off (a twin). */
const TRACED = SERVERS.filter((server) => server.id.startsWith("demo"));
const untraced = (id: string) => `${id}notrace`;

/** {@link CALL_ROUNDS} rounds of a block to each side, to the HTTP floor and to the bare hop. */
async function interleaved(
  direct: () => Promise<unknown>,
  lass: () => Promise<unknown>,
  floor: () => Promise<unknown>,
  hop: () => Promise<unknown>,
): Promise<Omit<CallRow, "label" | "era">> {
  const rounds = await blockRounds([direct, lass, floor, hop], {
    rounds: CALL_ROUNDS,
    block: CALL_BLOCK,
    warmup: WARMUP,
  });
  const p50s = rounds.map((blocks) => blocks.map((block) => latency(block.times).p50Ms));
  const all = (side: number) => rounds.flatMap((blocks) => blocks[side].times);
  return {
    direct: latency(all(0)),
    lass: latency(all(1)),
    addedP50Ms: median(p50s.map(([direct, lass]) => lass - direct)),
    lassPartP50Ms: median(p50s.map(([direct, lass, floor]) => lass - direct - floor)),
    hopAddedP50Ms: median(p50s.map(([direct, , , hop]) => hop - direct)),
  };
}

/**
 * Trace on against off in short blocks, side by side: the median rate (calls/s) of each side,
 * and the median of the rounds' ratios.
 */
async function traceCost(on: () => Promise<unknown>, off: () => Promise<unknown>) {
  const rounds = await blockRounds([on, off], {
    rounds: TRACE_PAIRS,
    block: TRACE_BLOCK_CALLS,
    warmup: WARMUP,
  });
  const rates = rounds.map((blocks) => blocks.map((block) => block.times.length / block.ms * 1000));
  return {
    on: median(rates.map(([on]) => on)),
    off: median(rates.map(([, off]) => off)),
    ratio: median(rates.map(([on, off]) => on / off)),
  };
}

/**
 * One in-process session to the demo whose wire sink is switched on and off between reps: the
 * recording's own cost, without HTTP around it.
 */
async function sessionTraceCost(server: Server) {
  const traces = new ToolServerTraces();
  let recording = true;
  const session = await openSession(
    specOf(server),
    { ...QUIET_HANDLERS, wire: () => traces.channel(server.id, () => recording) },
    { timeoutMs: 60_000, era: server.era as EraSetting },
  );
  const call = () =>
    session.runsAsTask("add")
      ? session.callToolTask("add", { a: 2, b: 3 }, { timeoutMs: 10_000 })
      : session.callTool("add", { a: 2, b: 3 }, { timeoutMs: 10_000 });
  try {
    return await traceCost(
      () => (recording = true, call()),
      () => (recording = false, call()),
    );
  } finally {
    await session.close();
  }
}

/** A bench server as a record of the config. */
function recordOf(server: Server) {
  return {
    id: server.id as string,
    name: server.label,
    transport: "stdio",
    protocolEra: server.era,
    timeoutMs: 60_000,
    ...("inProcess" in server ? { command: "service:demo" } : server.stdio),
  };
}

/** Lass with every bench server, and an untraced twin of each traced one. */
function startLass(dir: string) {
  return startBenchLass(dir, [
    ...SERVERS.map(recordOf),
    ...TRACED.map((server) => ({ ...recordOf(server), id: untraced(server.id), trace: false })),
  ]);
}

const env = { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "" };
const demoHandler = createDemoHandler();

function specOf(server: Server): TransportSpec {
  return "inProcess" in server
    ? { kind: "in-process", handler: demoHandler }
    : { kind: "stdio", ...server.stdio, env };
}

/** The same v2 client (Lass's `openSession`) in this process, to the same server. */
async function direct(server: Server) {
  const session = await openSession(specOf(server), QUIET_HANDLERS, {
    timeoutMs: 60_000,
    era: server.era as EraSetting,
  });
  return session;
}

/**
 * Connect times (session only) of one spec under `auto`, under `legacy` and, on stdio, in the
 * era an earlier start kept (`cache/eras.json`): that era at once, probed on the server's own
 * process.
 */
async function connectTimes(spec: TransportSpec, runs: number): Promise<ConnectTimes> {
  const out: Record<string, number[]> = { auto: [], legacy: [], kept: [] };
  let verdict: "modern" | "legacy" | undefined;
  for (let i = 0; i < runs; i++) {
    for (const era of ["auto", "legacy", "kept"] as const) {
      if (era === "kept" && (spec.kind !== "stdio" || !verdict)) continue;
      const options = era === "kept"
        ? { era: verdict, probeInPlace: true }
        : { era: era as "auto" | "legacy" };
      const started = performance.now();
      const session = await openSession(spec, QUIET_HANDLERS, { timeoutMs: 60_000, ...options });
      out[era].push(performance.now() - started);
      if (era === "auto") verdict = session.verdict.kind;
      await session.close();
    }
  }
  return {
    auto: median(out.auto),
    legacy: median(out.legacy),
    ...(out.kept.length > 0 && { kept: median(out.kept) }),
  };
}

/** The demo server (both eras) over Streamable HTTP on a free port, in this process. */
function demoHttp() {
  const handler = createDemoHandler();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => handler.fetch(req),
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    stop: async () => {
      await server.shutdown();
      await handler.close();
    },
  };
}

async function main(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "lass-mcp-bench-" });
  const lass = await startLass(dir);
  const rows: CallRow[] = [];
  const traceRows: TraceRow[] = [];
  try {
    const health = await lass.health();
    for (const server of TRACE_ONLY || CONNECTS_ONLY ? [] : SERVERS) {
      const session = await direct(server);
      const [tool, args] = server.id === "everything"
        ? ["get-sum", { a: 2, b: 3 }]
        : ["add", { a: 2, b: 3 }];
      // The path Lass takes too: a server with the 2026 tasks extension may answer any call
      // with a task, so such calls go through the tasks path on both sides.
      const directCall = session.runsAsTask(tool)
        ? () => session.callToolTask(tool, args, { timeoutMs: 10_000 })
        : () => session.callTool(tool, args, { timeoutMs: 10_000 });
      const lassCall = await lass.call(server.id, tool, args);
      const hop = await startBareHop(
        "inProcess" in server ? { inProcess: true } : { stdio: server.stdio },
        server.era,
      );
      const hopClient = await rawHttpClient({
        port: hop.port,
        method: "POST",
        path: "/",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ tool, args }),
      });
      try {
        rows.push({
          label: server.label,
          era: `${session.era} / Lass: ${lass.eras[server.id]}`,
          ...await interleaved(directCall, lassCall, health, () => hopClient.send()),
        });
      } finally {
        hopClient.close();
        await hop.stop();
        await session.close();
      }
    }
    for (const server of CALLS_ONLY || CONNECTS_ONLY ? [] : TRACED) {
      const args = { a: 2, b: 3 };
      const on = await lass.call(server.id, "add", args);
      const off = await lass.call(untraced(server.id), "add", args);
      traceRows.push({ label: `${server.label}, Lass API`, ...await traceCost(on, off) });
    }
  } finally {
    await lass.stop();
  }
  const sessionTraced = CALLS_ONLY || CONNECTS_ONLY ? [] : TRACED;
  for (const server of sessionTraced.filter((server) => "inProcess" in server)) {
    traceRows.push({ label: `${server.label}, session`, ...await sessionTraceCost(server) });
  }

  const http = TRACE_ONLY || CALLS_ONLY
    ? []
    : [await startEverything("streamableHttp"), demoHttp()];
  const connects: Record<string, ConnectTimes> = {};
  try {
    if (!TRACE_ONLY && !CALLS_ONLY) {
      connects["everything stdio (2025 only)"] = await connectTimes(
        { kind: "stdio", ...everythingStdio, env },
        STDIO_CONNECTS,
      );
      connects["demo stdio (both eras)"] = await connectTimes(
        { kind: "stdio", ...demoStdio, env },
        STDIO_CONNECTS,
      );
      connects["everything http (2025 only)"] = await connectTimes(
        { kind: "http", url: http[0].url, headers: {} },
        HTTP_CONNECTS,
      );
      connects["demo http (both eras)"] = await connectTimes(
        { kind: "http", url: http[1].url, headers: {} },
        HTTP_CONNECTS,
      );
    }
  } finally {
    for (const server of http) await server.stop();
    await demoHandler.close();
    await Deno.remove(dir, { recursive: true });
  }
  report(rows, traceRows, connects, {
    callRounds: CALL_ROUNDS,
    callBlock: CALL_BLOCK,
    tracePairs: TRACE_PAIRS,
    traceBlockCalls: TRACE_BLOCK_CALLS,
    goalAddedP50Ms: GOAL_ADDED_P50_MS,
    goalTraceCost: GOAL_TRACE_COST,
  });
}

if (import.meta.main) await main();
