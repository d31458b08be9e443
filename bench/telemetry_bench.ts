/**
 * What OpenTelemetry costs a chat turn: the p50 time to the first text of a turn on the demo model
 * that calls a demo tool (two model steps, one tool call, one MCP request), on one Lass exporting
 * its traces to an OTLP receiver on loopback against one with telemetry off, turns interleaved in
 * the same run. Goal (issue 29): telemetry on adds at most 5 % to that p50.
 */
import { BENCH_TOKEN, type LassProcess, startLassProcess } from "./_lass_process.ts";
import { round, row } from "./_stats.ts";
import { latency, readChat } from "./_turns.ts";
import { DEMO_LLM } from "./_demo_llm.ts";

const WARMUP_TURNS = 30;
const MEASURED_TURNS = 600;
const GOAL_RATIO = 1.05;
const PROMPT = "please add 2 and 3";

/** The demo model and tool server in one workspace, with the given telemetry section. */
function config(telemetry?: Record<string, unknown>) {
  return {
    llms: [DEMO_LLM],
    mcpServers: [{ id: "demo", name: "Demo tools", transport: "stdio", command: "service:demo" }],
    workspaces: [{ id: "w", name: "W", mcpServerIds: ["demo"], toolServerWaitMs: 60_000 }],
    activeWorkspaceId: "w",
    ...(telemetry && { telemetry }),
  };
}

/** A receiver that takes every export and counts its requests and bytes (it decodes nothing). */
function startReceiver() {
  const counts = { requests: 0, bytes: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    counts.bytes += (await req.arrayBuffer()).byteLength;
    counts.requests++;
    return new Response(new Uint8Array(), {
      headers: { "content-type": req.headers.get("content-type") ?? "application/x-protobuf" },
    });
  });
  return {
    counts,
    endpoint: `http://127.0.0.1:${server.addr.port}`,
    close: () => server.shutdown(),
  };
}

/** One turn's time to its first text, in ms. */
async function firstTextMs(lass: LassProcess): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${lass.base}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-token": BENCH_TOKEN },
    body: JSON.stringify({ messages: [{ role: "user", content: PROMPT }] }),
  });
  const timing = await readChat(response, started);
  if (!timing.finished || timing.toolResults !== 1) {
    throw new Error(`the turn did not finish with one tool result: ${timing.error ?? "?"}`);
  }
  return timing.firstTextMs;
}

const receiver = startReceiver();
const offDir = await Deno.makeTempDir({ prefix: "lass-bench-otel-off-" });
const onDir = await Deno.makeTempDir({ prefix: "lass-bench-otel-on-" });
const off = await startLassProcess(offDir, config());
const on = await startLassProcess(
  onDir,
  config({ otlp: { endpoint: receiver.endpoint, protocol: "http/protobuf" } }),
);
try {
  for (let turn = 0; turn < WARMUP_TURNS; turn++) {
    await firstTextMs(off);
    await firstTextMs(on);
  }
  const times = { off: [] as number[], on: [] as number[] };
  for (let turn = 0; turn < MEASURED_TURNS; turn++) {
    // Alternating which side goes first keeps a drift of the machine off one side.
    const order = turn % 2 === 0 ? (["off", "on"] as const) : (["on", "off"] as const);
    for (const side of order) times[side].push(await firstTextMs(side === "on" ? on : off));
  }
  const offLatency = latency(times.off);
  const onLatency = latency(times.on);
  const ratio = onLatency.p50Ms / offLatency.p50Ms;
  const widths = [16, 12, 12];
  console.log(`Telemetry: ${MEASURED_TURNS} turns per side ("${PROMPT}" on the demo model)`);
  console.log(row(["", "p50 first text", "p99"], widths));
  console.log(
    row(["telemetry off", round(offLatency.p50Ms, 2), round(offLatency.p99Ms, 2)], widths),
  );
  console.log(row(["telemetry on", round(onLatency.p50Ms, 2), round(onLatency.p99Ms, 2)], widths));
  console.log(
    `on / off p50: ${round(ratio, 3)} (goal <= ${GOAL_RATIO}) ${
      ratio <= GOAL_RATIO ? "ok" : "MISSED"
    }; ` +
      `receiver got ${receiver.counts.requests} exports, ${receiver.counts.bytes} bytes`,
  );
  console.log(JSON.stringify({
    bench: "telemetry",
    turns: MEASURED_TURNS,
    offP50Ms: round(offLatency.p50Ms, 3),
    onP50Ms: round(onLatency.p50Ms, 3),
    ratio: round(ratio, 4),
    goal: GOAL_RATIO,
    exports: receiver.counts.requests,
  }));
} finally {
  await Promise.all([off.stop(), on.stop()]);
  await receiver.close();
  await Promise.all([
    Deno.remove(offDir, { recursive: true }),
    Deno.remove(onDir, { recursive: true }),
  ]);
}
