/** Benchmarks tool calls through Lass (`POST /api/mcp/:id/call`) against direct SDK calls, and connects. */
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { openSession, type SessionHandlers } from "../core/mcp/client.ts";
import { createDemoHandler } from "../core/mcp/demo_server.ts";
import { BENCH_TOKEN, startLassProcess } from "./_lass_process.ts";
import { type RawClient, rawHttpClient } from "./_raw_http.ts";

const EVERYTHING = "npm:@modelcontextprotocol/server-everything@2026.8.31";
const WARMUP = 200;
const CALLS = 2000;
const CONNECTS = 30;
const GOAL_ADDED_P50_MS = 0.5;
const GOAL_DEMO_CONNECT_MS = 20;

/** p50 and p99 of a list of milliseconds. */
interface Latency {
  p50Ms: number;
  p99Ms: number;
}

function summarise(times: number[]): Latency {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { p50Ms: at(0.5), p99Ms: at(0.99) };
}

async function time(runs: number, call: () => Promise<unknown>): Promise<Latency> {
  for (let i = 0; i < WARMUP; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  return summarise(times);
}

/** Starts Lass with the demo server and server-everything, both used by a workspace. */
async function startLass(dir: string) {
  const config = {
    llms: [{
      id: "demo",
      name: "Demo",
      provider: "compatible-api",
      model: "demo",
      baseURL: "service:demo",
    }],
    mcpServers: [
      { id: "demo", name: "Demo", transport: "stdio", command: "service:demo" },
      {
        id: "everything",
        name: "Everything",
        transport: "stdio",
        command: Deno.execPath(),
        args: ["run", "-A", EVERYTHING, "stdio"],
      },
    ],
    workspaces: [{ id: "w", name: "W", llmId: "demo", mcpServerIds: ["demo", "everything"] }],
  };
  const lass = await startLassProcess(dir, config);
  const { port, base } = lass;
  const headers = { "x-service-token": BENCH_TOKEN, "content-type": "application/json" };
  for (let i = 0; i < 600; i++) {
    const body = await (await fetch(`${base}/api/mcp`, { headers })).json();
    if (body.servers.every((s: { status: string }) => s.status === "connected")) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const clients: RawClient[] = [];
  const call = async (server: string, tool: string, args: unknown) => {
    const client = await rawHttpClient({
      port,
      method: "POST",
      path: `/api/mcp/${server}/call`,
      headers,
      body: JSON.stringify({ tool, args }),
    });
    clients.push(client);
    return () => client.send();
  };
  const connect = async () => {
    const started = performance.now();
    const response = await fetch(`${base}/api/mcp/demo/connect`, {
      method: "POST",
      headers,
      body: JSON.stringify({ force: true }),
    });
    await response.arrayBuffer();
    return performance.now() - started;
  };
  return {
    call,
    connect,
    stop: async () => {
      for (const client of clients) client.close();
      await lass.stop();
    },
  };
}

const quietHandlers: SessionHandlers = {
  sampling: () => Promise.reject(new Error("no sampling in the bench")),
  elicitation: () => Promise.reject(new Error("no elicitation in the bench")),
  log: () => {},
  stderr: () => {},
  listChanged: () => {},
  closed: () => {},
  troubled: () => {},
};

/** Direct SDK clients to the same two servers, in this process. */
async function directClients() {
  const demo = await openSession(
    { kind: "in-process", handler: createDemoHandler() },
    quietHandlers,
    { timeoutMs: 10_000 },
  );
  const everything = new Client({ name: "bench", version: "1" });
  await everything.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", EVERYTHING, "stdio"],
      stderr: "ignore",
    }),
  );
  return {
    demo: () => demo.callTool("add", { a: 2, b: 3 }, { timeoutMs: 10_000 }),
    everything: () => everything.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } }),
    close: async () => {
      await demo.close();
      await everything.close();
    },
  };
}

/** How long Lass's connect path takes for the in-process demo server (session + lists). */
async function demoConnectTimes(): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < CONNECTS; i++) {
    const started = performance.now();
    const session = await openSession(
      { kind: "in-process", handler: createDemoHandler() },
      quietHandlers,
      {
        timeoutMs: 10_000,
      },
    );
    await Promise.all([
      session.listTools(),
      session.listPrompts(),
      session.listResources(),
      session.listResourceTemplates(),
    ]);
    times.push(performance.now() - started);
    await session.close();
  }
  return times;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "lass-mcp-bench-" });
  const lass = await startLass(dir);
  const direct = await directClients();
  try {
    const rows: Record<string, { direct: Latency; lass: Latency }> = {};
    for (
      const [name, lassCall, directCall] of [
        ["demo add", await lass.call("demo", "add", { a: 2, b: 3 }), direct.demo],
        [
          "everything get-sum (stdio)",
          await lass.call("everything", "get-sum", { a: 2, b: 3 }),
          direct.everything,
        ],
      ] as const
    ) {
      // Interleave two reps of each and keep the better p50 of each side.
      const a = await time(CALLS, directCall);
      const b = await time(CALLS, lassCall);
      const c = await time(CALLS, directCall);
      const d = await time(CALLS, lassCall);
      rows[name] = { direct: a.p50Ms <= c.p50Ms ? a : c, lass: b.p50Ms <= d.p50Ms ? b : d };
    }
    const connectInProcess = await demoConnectTimes();
    const connectHttp: number[] = [];
    for (let i = 0; i < 10; i++) connectHttp.push(await lass.connect());

    console.log(`Tool calls, ${CALLS} sequential calls per rep (ms)`);
    console.log(
      "call                          direct p50  direct p99   Lass p50    Lass p99   added p50",
    );
    const added: Record<string, number> = {};
    for (const [name, { direct: d, lass: l }] of Object.entries(rows)) {
      added[name] = l.p50Ms - d.p50Ms;
      console.log(
        `${name.padEnd(28)}${d.p50Ms.toFixed(3).padStart(11)}${d.p99Ms.toFixed(3).padStart(12)}` +
          `${l.p50Ms.toFixed(3).padStart(11)}${l.p99Ms.toFixed(3).padStart(12)}${
            added[name].toFixed(3).padStart(12)
          }`,
      );
    }
    const connectMedian = median(connectInProcess);
    console.log(
      `\nDemo server connect (session + all lists), ${CONNECTS} runs: median ${
        connectMedian.toFixed(1)
      } ms, ` +
        `min ${Math.min(...connectInProcess).toFixed(1)} ms; over HTTP (force reconnect): median ${
          median(connectHttp).toFixed(1)
        } ms`,
    );
    console.log("\nGoals (informational):");
    for (const [name, value] of Object.entries(added)) {
      console.log(
        `  ${
          value < GOAL_ADDED_P50_MS ? "PASS" : "FAIL"
        }  ${name}: added p50 < ${GOAL_ADDED_P50_MS} ms (${value.toFixed(3)} ms)`,
      );
    }
    console.log(
      `  ${
        connectMedian < GOAL_DEMO_CONNECT_MS ? "PASS" : "FAIL"
      }  demo connect < ${GOAL_DEMO_CONNECT_MS} ms (${connectMedian.toFixed(1)} ms)`,
    );
    console.log(
      JSON.stringify({
        calls: rows,
        addedP50Ms: added,
        demoConnectMs: { median: connectMedian, httpMedian: median(connectHttp) },
      }),
    );
  } finally {
    await direct.close();
    await lass.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) await main();
