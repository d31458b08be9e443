/** Benchmarks the real Lass server against a bare `Deno.serve` baseline in the same run. */
import { parseArgs } from "node:util";
import { rawHttpClient } from "./_raw_http.ts";
import { START_FLAGS } from "../scripts/permissions.ts";
import { median } from "./_stats.ts";

const MAIN_TS = new URL("../main.ts", import.meta.url);
const REPO_ROOT = new URL("..", import.meta.url);
const REAL_READY = /^Lass ready: http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)$/;
const BASELINE_READY = /^Baseline ready: (\d+)$/;
const JSON_TYPE = "application/json; charset=utf-8";

const LATENCY_WARMUP = 500;
const LATENCY_REQUESTS = 1000;
/** Sequential reps per server, interleaved; the reported figure is the median of the reps. */
const LATENCY_REPS = 7;
const CONCURRENCY = 16;
const THROUGHPUT_WARMUP_MS = 1000;
const THROUGHPUT_MS = 3000;
const REPS = 2;
const STARTUP_RUNS = 5;
const IDLE_WAIT_MS = 1000;
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5000;

const GOAL_BOOTSTRAP_P50_RATIO = 1.5;
const GOAL_STARTUP_MS = 300;
const GOAL_IDLE_RSS_MB = 80;

type EndpointName = "health" | "bootstrap";
type Pair<T> = { baseline: T; real: T };

/** Which client drives the load: a minimal keep-alive HTTP/1.1 socket client, or `fetch`. */
type ClientKind = "raw" | "fetch";

/** One endpoint on one server, as the load generator sees it. */
interface Target {
  port: number;
  /** The server process, whose CPU time is read around the concurrent phase. */
  pid: number;
  path: string;
  headers: Record<string, string>;
}

/** Sends the same request again and again, reading each response fully. */
interface Client {
  send(): Promise<void>;
  close(): void;
}

/** Results of the 1-connection sequential phase. */
interface LatencyResult {
  p50Ms: number;
  p99Ms: number;
  rps: number;
}

/** Results of the concurrent fixed-duration phase. */
interface ThroughputResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Server CPU time (user + system) per request: steadier than wall time on a shared VM. */
  cpuUsPerRequest: number;
}

/** Median-of-reps latency and best-of-reps throughput for one endpoint on one server. */
interface ServerResult {
  latency: LatencyResult;
  throughput: ThroughputResult;
}

/** A child process that printed its ready line. */
interface Spawned {
  child: Deno.ChildProcess;
  ready: RegExpExecArray;
  stop: () => Promise<void>;
}

/** An endpoint under test: its name, path and whether it needs the token header. */
interface Endpoint {
  name: EndpointName;
  path: string;
  authenticated: boolean;
}

/** Real / baseline ratios for one endpoint, plus the absolute sequential p50 difference. */
interface Ratios {
  p50: number;
  p99: number;
  throughput: number;
  cpuPerRequest: number;
  p50DeltaMs: number;
}

/** Both servers, running, with a target per endpoint on each. */
interface Servers extends Pair<Spawned> {
  targets: Record<EndpointName, Pair<Target>>;
}

/** Everything measured, as printed in the final JSON line. */
interface Report {
  date: string;
  deno: string;
  cpus: number;
  client: ClientKind;
  settings: Record<string, number>;
  load: Record<EndpointName, Pair<ServerResult>>;
  ratios: Record<EndpointName, Ratios>;
  startup: { runsMs: number[]; minMs: number; medianMs: number };
  /** RSS after start-up with no requests served yet: the goal's "idle". */
  idleRssMb: Pair<number>;
  /** RSS once the load has passed (V8 keeps some of the heap it grew). */
  afterLoadRssMb: Pair<number>;
  goals: Record<string, { value: number; limit: number; pass: boolean }>;
}

const ENDPOINTS: Endpoint[] = [
  { name: "health", path: "/api/health", authenticated: false },
  { name: "bootstrap", path: "/api/bootstrap", authenticated: true },
];

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Races `promise` against a timer that is always cleared, so no timer outlives the race. */
async function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(onTimeout()), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))];
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** Calls `onLine` for each stdout line; keeps draining so the child never blocks on a full pipe. */
async function readLines(
  stream: ReadableStream<Uint8Array<ArrayBuffer>>,
  onLine: (line: string) => void,
): Promise<void> {
  let rest = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    rest += chunk;
    for (let end = rest.indexOf("\n"); end >= 0; end = rest.indexOf("\n")) {
      onLine(rest.slice(0, end).replace(/\r$/, ""));
      rest = rest.slice(end + 1);
    }
  }
  if (rest) onLine(rest);
}

async function readAll(stream: ReadableStream<Uint8Array<ArrayBuffer>>): Promise<string> {
  let text = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) text += chunk;
  return text;
}

async function stopChild(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGTERM");
  } catch {
    // Already exited.
  }
  const exited = await withTimeout(child.status.then(() => true), STOP_TIMEOUT_MS, () => false);
  if (!exited) {
    child.kill("SIGKILL");
    await child.status;
  }
}

/** Spawns `deno <args>` in the repo root and waits for a stdout line matching `ready`. */
async function spawnDeno(args: string[], ready: RegExp): Promise<Spawned> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: REPO_ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stderrText = "";
  const stderrDone = readAll(child.stderr).then((text) => void (stderrText = text));
  let onReady: (match: RegExpExecArray) => void = () => {};
  const readyLine = new Promise<RegExpExecArray>((resolve) => (onReady = resolve));
  const stdoutDone = readLines(child.stdout, (line) => {
    const match = ready.exec(line);
    if (match) onReady(match);
  });
  const stop = async () => {
    await stopChild(child);
    await Promise.all([stdoutDone, stderrDone]);
  };
  const failed = child.status.then((status) => {
    throw new Error(`exited with code ${status.code} before printing its ready line`);
  });
  try {
    const match = await withTimeout(Promise.race([readyLine, failed]), READY_TIMEOUT_MS, () => {
      throw new Error(`printed no ready line within ${READY_TIMEOUT_MS} ms`);
    });
    return { child, ready: match, stop };
  } catch (error) {
    await stop();
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`deno ${args.join(" ")}: ${message}\n${stderrText.trim()}`);
  }
}

/** Starts the real server with its config and data under `dir`. */
function startRealServer(dir: string): Promise<Spawned> {
  return spawnDeno([
    "run",
    ...START_FLAGS,
    MAIN_TS.pathname,
    "--port",
    "0",
    "--config",
    `${dir}/service.json`,
    "--data-dir",
    `${dir}/data`,
  ], REAL_READY);
}

function baselineSource(bodies: Record<string, string>): string {
  return `const BODIES: Record<string, string> = ${JSON.stringify(bodies)};
const HEADERS = { "content-type": ${JSON.stringify(JSON_TYPE)} };
Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(\`Baseline ready: \${port}\`),
}, (request) => {
  const body = BODIES[new URL(request.url).pathname];
  return body === undefined ? new Response("not found", { status: 404 }) : new Response(body, { headers: HEADERS });
});
`;
}

/** Writes a bare `Deno.serve` that answers each path in `bodies` with that body, and starts it. */
async function startBaseline(dir: string, bodies: Record<string, string>): Promise<Spawned> {
  const file = `${dir}/baseline_server.ts`;
  await Deno.writeTextFile(file, baselineSource(bodies));
  return spawnDeno(["run", "--allow-net", file], BASELINE_READY);
}

async function fetchBody(target: Target): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${target.port}${target.path}`, {
    headers: target.headers,
  });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${target.path}: HTTP ${response.status} ${body}`);
  return body;
}

function fetchClient(target: Target): Client {
  const url = `http://127.0.0.1:${target.port}${target.path}`;
  return {
    send: async () => {
      const response = await fetch(url, { headers: target.headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`${target.path}: HTTP ${response.status}`);
    },
    close: () => {},
  };
}

function rawClient(target: Target): Promise<Client> {
  return rawHttpClient({
    port: target.port,
    method: "GET",
    path: target.path,
    headers: target.headers,
  });
}

function openClient(kind: ClientKind, target: Target): Promise<Client> {
  return kind === "raw" ? rawClient(target) : Promise.resolve(fetchClient(target));
}

/** Phase (a): one connection, sequential requests, per-request time. */
async function measureLatency(kind: ClientKind, target: Target): Promise<LatencyResult> {
  const client = await openClient(kind, target);
  try {
    for (let i = 0; i < LATENCY_WARMUP; i++) await client.send();
    const times: number[] = [];
    const start = performance.now();
    for (let i = 0; i < LATENCY_REQUESTS; i++) {
      const sent = performance.now();
      await client.send();
      times.push(performance.now() - sent);
    }
    const elapsedMs = performance.now() - start;
    times.sort((a, b) => a - b);
    return {
      p50Ms: percentile(times, 0.5),
      p99Ms: percentile(times, 0.99),
      rps: LATENCY_REQUESTS / (elapsedMs / 1000),
    };
  } finally {
    client.close();
  }
}

async function runWorkers(clients: Client[], durationMs: number, times?: number[]): Promise<void> {
  const deadline = performance.now() + durationMs;
  await Promise.all(clients.map(async (client) => {
    while (performance.now() < deadline) {
      const sent = performance.now();
      await client.send();
      times?.push(performance.now() - sent);
    }
  }));
}

/** Phase (b): CONCURRENCY workers for a fixed time after a warm-up, counting completed requests. */
/** Linux clock ticks are 1/100 s (USER_HZ), so one tick is 10,000 µs. */
const MICROSECONDS_PER_TICK = 10_000;

/** User plus system CPU ticks of a process, from `/proc/<pid>/stat`. */
async function cpuTicks(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

async function measureThroughput(kind: ClientKind, target: Target): Promise<ThroughputResult> {
  const clients = await Promise.all(
    Array.from({ length: CONCURRENCY }, () => openClient(kind, target)),
  );
  try {
    await runWorkers(clients, THROUGHPUT_WARMUP_MS);
    const times: number[] = [];
    const cpuBefore = await cpuTicks(target.pid);
    const start = performance.now();
    await runWorkers(clients, THROUGHPUT_MS, times);
    const elapsedMs = performance.now() - start;
    const cpuUs = (await cpuTicks(target.pid) - cpuBefore) * MICROSECONDS_PER_TICK;
    times.sort((a, b) => a - b);
    return {
      rps: times.length / (elapsedMs / 1000),
      p50Ms: percentile(times, 0.5),
      p99Ms: percentile(times, 0.99),
      requests: times.length,
      cpuUsPerRequest: cpuUs / times.length,
    };
  } finally {
    for (const client of clients) client.close();
  }
}

/**
 * Runs the sequential phase LATENCY_REPS times and the concurrent phase REPS times per server,
 * interleaving baseline and real; latency is the median rep, throughput the best rep.
 */
async function benchEndpoint(
  kind: ClientKind,
  targets: Pair<Target>,
): Promise<Pair<ServerResult>> {
  const servers = ["baseline", "real"] as const;
  const latency: Record<"baseline" | "real", LatencyResult[]> = { baseline: [], real: [] };
  for (let rep = 0; rep < LATENCY_REPS; rep++) {
    for (const server of servers) latency[server].push(await measureLatency(kind, targets[server]));
  }
  const throughput: Record<"baseline" | "real", ThroughputResult[]> = { baseline: [], real: [] };
  for (let rep = 0; rep < REPS; rep++) {
    for (const server of servers) {
      throughput[server].push(await measureThroughput(kind, targets[server]));
    }
  }
  const summarise = (server: "baseline" | "real"): ServerResult => ({
    latency: {
      p50Ms: median(latency[server].map((r) => r.p50Ms)),
      p99Ms: median(latency[server].map((r) => r.p99Ms)),
      rps: median(latency[server].map((r) => r.rps)),
    },
    throughput: throughput[server].reduce((a, b) => (b.rps > a.rps ? b : a)),
  });
  return { baseline: summarise("baseline"), real: summarise("real") };
}

async function waitHealthy(port: number): Promise<void> {
  for (;;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      await response.body?.cancel();
      if (response.status === 200) return;
    } catch {
      // Not accepting yet: poll again.
    }
    await delay(1);
  }
}

/** Milliseconds from just before spawn to the first 200 from `/api/health`, fresh config dir. */
async function timeStartToHealthy(): Promise<number> {
  const dir = await Deno.makeTempDir({ prefix: "lass-bench-start-" });
  try {
    const start = performance.now();
    const server = await startRealServer(dir);
    try {
      await waitHealthy(Number(server.ready[1]));
      return performance.now() - start;
    } finally {
      await server.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** One warm-up run (module cache), then STARTUP_RUNS measured runs. */
async function measureStartup(): Promise<number[]> {
  await timeStartToHealthy();
  const runs: number[] = [];
  for (let i = 0; i < STARTUP_RUNS; i++) runs.push(await timeStartToHealthy());
  return runs;
}

async function readRssMb(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

/** Starts the real server in `dir`, fetches its bodies, and starts a baseline serving them. */
async function startServers(dir: string, running: Spawned[]): Promise<Servers> {
  const real = await startRealServer(dir);
  running.push(real);
  const realTargets = ENDPOINTS.map((endpoint): Target => ({
    port: Number(real.ready[1]),
    pid: real.child.pid,
    path: endpoint.path,
    headers: endpoint.authenticated ? { "x-service-token": real.ready[2] } : {},
  }));
  const bodies: Record<string, string> = {};
  for (const target of realTargets) bodies[target.path] = await fetchBody(target);
  const baseline = await startBaseline(dir, bodies);
  running.push(baseline);
  const targets = Object.fromEntries(ENDPOINTS.map((endpoint, i) => [endpoint.name, {
    real: realTargets[i],
    baseline: { ...realTargets[i], port: Number(baseline.ready[1]), pid: baseline.child.pid },
  }])) as Record<EndpointName, Pair<Target>>;
  return { real, baseline, targets };
}

async function runLoad(
  client: ClientKind,
  servers: Servers,
): Promise<Record<EndpointName, Pair<ServerResult>>> {
  const load: Partial<Record<EndpointName, Pair<ServerResult>>> = {};
  for (const { name } of ENDPOINTS) {
    console.error(`measuring ${name} (baseline and real interleaved)...`);
    load[name] = await benchEndpoint(client, servers.targets[name]);
  }
  return load as Record<EndpointName, Pair<ServerResult>>;
}

async function measureIdleRss(servers: Servers): Promise<Pair<number>> {
  await delay(IDLE_WAIT_MS);
  return {
    real: await readRssMb(servers.real.child.pid),
    baseline: await readRssMb(servers.baseline.child.pid),
  };
}

function ratios(pair: Pair<ServerResult>): Ratios {
  return {
    p50: pair.real.latency.p50Ms / pair.baseline.latency.p50Ms,
    p99: pair.real.latency.p99Ms / pair.baseline.latency.p99Ms,
    throughput: pair.real.throughput.rps / pair.baseline.throughput.rps,
    cpuPerRequest: pair.real.throughput.cpuUsPerRequest / pair.baseline.throughput.cpuUsPerRequest,
    p50DeltaMs: pair.real.latency.p50Ms - pair.baseline.latency.p50Ms,
  };
}

function buildReport(
  client: ClientKind,
  load: Record<EndpointName, Pair<ServerResult>>,
  startupMs: number[],
  rss: { idle: Pair<number>; afterLoad: Pair<number> },
): Report {
  const idleRssMb = rss.idle;
  const allRatios = { health: ratios(load.health), bootstrap: ratios(load.bootstrap) };
  const startup = { runsMs: startupMs, minMs: Math.min(...startupMs), medianMs: median(startupMs) };
  const goal = (value: number, limit: number, pass: boolean) => ({ value, limit, pass });
  return {
    date: new Date().toISOString(),
    deno: Deno.version.deno,
    cpus: navigator.hardwareConcurrency,
    client,
    settings: {
      LATENCY_WARMUP,
      LATENCY_REQUESTS,
      CONCURRENCY,
      THROUGHPUT_WARMUP_MS,
      THROUGHPUT_MS,
      REPS,
      LATENCY_REPS,
      STARTUP_RUNS,
    },
    load,
    ratios: allRatios,
    startup,
    idleRssMb,
    afterLoadRssMb: rss.afterLoad,
    goals: {
      bootstrapP50Ratio: goal(
        allRatios.bootstrap.p50,
        GOAL_BOOTSTRAP_P50_RATIO,
        allRatios.bootstrap.p50 <= GOAL_BOOTSTRAP_P50_RATIO,
      ),
      startupMedianMs: goal(startup.medianMs, GOAL_STARTUP_MS, startup.medianMs < GOAL_STARTUP_MS),
      idleRssMb: goal(idleRssMb.real, GOAL_IDLE_RSS_MB, idleRssMb.real < GOAL_IDLE_RSS_MB),
    },
  };
}

function row(cells: (string | number)[], widths: number[]): string {
  return cells.map((cell, i) => {
    const text = String(cell);
    return i === 0 ? text.padEnd(widths[i]) : text.padStart(widths[i]);
  }).join("  ");
}

function printLoad(report: Report): void {
  const widths = [20, 9, 9, 9, 10, 9, 9, 11];
  console.log(
    `\nLoad (seq: 1 connection, median of ${LATENCY_REPS} reps of ${LATENCY_REQUESTS} requests; ` +
      `conc: ${CONCURRENCY} connections for ${THROUGHPUT_MS / 1000} s, best of ${REPS} reps). ` +
      `Latencies in ms, server CPU in µs per request.`,
  );
  console.log(
    row([
      "",
      "seq p50",
      "seq p99",
      "seq req/s",
      "conc req/s",
      "conc p50",
      "conc p99",
      "cpu µs/req",
    ], widths),
  );
  for (const { name } of ENDPOINTS) {
    for (const server of ["baseline", "real"] as const) {
      const { latency, throughput } = report.load[name][server];
      console.log(row([
        `${name} ${server}`,
        latency.p50Ms.toFixed(3),
        latency.p99Ms.toFixed(3),
        latency.rps.toFixed(0),
        throughput.rps.toFixed(0),
        throughput.p50Ms.toFixed(3),
        throughput.p99Ms.toFixed(3),
        throughput.cpuUsPerRequest.toFixed(1),
      ], widths));
    }
  }
  const ratioWidths = [20, 9, 9, 10, 11, 16];
  console.log("\nRatios, real / baseline");
  console.log(
    row(["", "seq p50", "seq p99", "conc req/s", "cpu µs/req", "seq p50 diff ms"], ratioWidths),
  );
  for (const { name } of ENDPOINTS) {
    const r = report.ratios[name];
    console.log(
      row([
        name,
        r.p50.toFixed(2),
        r.p99.toFixed(2),
        r.throughput.toFixed(2),
        r.cpuPerRequest.toFixed(2),
        r.p50DeltaMs.toFixed(3),
      ], ratioWidths),
    );
  }
}

function printReport(report: Report): void {
  printLoad(report);
  const { startup, idleRssMb, afterLoadRssMb, goals } = report;
  const runs = startup.runsMs.map((t) => t.toFixed(0)).join(", ");
  console.log(`\nStart to healthy, ${STARTUP_RUNS} runs (ms): ${runs}`);
  console.log(`  min ${startup.minMs.toFixed(0)} ms, median ${startup.medianMs.toFixed(0)} ms`);
  console.log(
    `\nIdle RSS after start-up: real ${idleRssMb.real.toFixed(1)} MB, baseline ${
      idleRssMb.baseline.toFixed(1)
    } MB`,
  );
  console.log(
    `RSS after the load: real ${afterLoadRssMb.real.toFixed(1)} MB, baseline ${
      afterLoadRssMb.baseline.toFixed(1)
    } MB`,
  );
  const line = (pass: boolean, text: string) => console.log(`  ${pass ? "PASS" : "FAIL"}  ${text}`);
  console.log("\nGoals (informational):");
  line(
    goals.bootstrapP50Ratio.pass,
    `bootstrap p50 latency ratio <= ${GOAL_BOOTSTRAP_P50_RATIO} ` +
      `(${goals.bootstrapP50Ratio.value.toFixed(2)})`,
  );
  line(
    goals.startupMedianMs.pass,
    `start to healthy median < ${GOAL_STARTUP_MS} ms (${startup.medianMs.toFixed(0)} ms)`,
  );
  line(goals.idleRssMb.pass, `idle RSS < ${GOAL_IDLE_RSS_MB} MB (${idleRssMb.real.toFixed(1)} MB)`);
  console.log();
  console.log(
    JSON.stringify(report, (_key, value) => typeof value === "number" ? round(value, 3) : value),
  );
}

function parseClient(args: string[]): ClientKind {
  const { values } = parseArgs({ args, options: { client: { type: "string", default: "raw" } } });
  if (values.client !== "raw" && values.client !== "fetch") {
    throw new Error(`--client must be raw or fetch, not ${values.client}`);
  }
  return values.client;
}

/** Runs every measurement (idle RSS, load, RSS after load, start to healthy) and prints the report. */
async function main(args: string[]): Promise<void> {
  const client = parseClient(args);
  console.log(
    `Lass server bench: deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} CPUs, ` +
      `client ${client}`,
  );
  const dir = await Deno.makeTempDir({ prefix: "lass-bench-" });
  const running: Spawned[] = [];
  try {
    const servers = await startServers(dir, running);
    const idle = await measureIdleRss(servers);
    const load = await runLoad(client, servers);
    const afterLoad = await measureIdleRss(servers);
    for (const server of running.splice(0)) await server.stop();
    console.error(`measuring start to healthy (1 warm-up + ${STARTUP_RUNS} runs)...`);
    const startupMs = await measureStartup();
    printReport(buildReport(client, load, startupMs, { idle, afterLoad }));
  } finally {
    for (const server of running) await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  try {
    await main(Deno.args);
  } catch (error) {
    console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exitCode = 1;
  }
}
