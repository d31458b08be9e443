/**
 * The cost of cutting off slow clients: the same handler behind a bare `Deno.serve` and behind
 * `serveWithTimeouts` (cli/listen.ts), interleaved in one run. Sequential latency on one kept-alive
 * connection, and requests per second on 16 new connections (the per-connection cost counts).
 */
import { rawHttpClient } from "./_raw_http.ts";

const LISTEN_TS = new URL("../cli/listen.ts", import.meta.url).href;
const REPS = 7;
const WARMUP = 300;
const REQUESTS = 1000;
const CONNECTIONS = 16;
const LOAD_MS = 1000;

const SERVER_SOURCE = `
import { serveWithTimeouts } from ${JSON.stringify(LISTEN_TS)};
const body = JSON.stringify({ ok: true, version: "0.1.0" });
const handler = (_req: Request) =>
  Promise.resolve(new Response(body, { headers: { "content-type": "application/json" } }));
if (Deno.args[0] === "bare") {
  Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log("ready " + port) }, handler);
} else {
  const server = serveWithTimeouts(
    { hostname: "127.0.0.1", port: 0, signal: new AbortController().signal },
    handler,
  );
  console.log("ready " + server.addr.port);
}
`;

type Kind = "bare" | "guarded";

async function startServer(kind: Kind) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net", "--allow-read", "-", kind],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(SERVER_SOURCE));
  await writer.close();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/ready (\d+)/.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the ${kind} server exited before it was ready`);
    text += value;
  }
  reader.releaseLock();
  return { child, port: Number(/ready (\d+)/.exec(text)![1]) };
}

/** User plus system CPU ticks (1/100 s) of a process, from `/proc/<pid>/stat`. */
async function cpuTicks(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

const servers = { bare: await startServer("bare"), guarded: await startServer("guarded") };
const p50: Record<Kind, number[]> = { bare: [], guarded: [] };
const rps: Record<Kind, number[]> = { bare: [], guarded: [] };
const cpu: Record<Kind, number[]> = { bare: [], guarded: [] };
for (let rep = 0; rep < REPS; rep++) {
  for (const kind of ["bare", "guarded"] as const) {
    const request = { port: servers[kind].port, method: "GET" as const, path: "/", headers: {} };
    const client = await rawHttpClient(request);
    for (let i = 0; i < WARMUP; i++) await client.send();
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const start = performance.now();
      await client.send();
      times.push(performance.now() - start);
    }
    client.close();
    p50[kind].push(median(times));
    const clients = await Promise.all(
      Array.from({ length: CONNECTIONS }, () => rawHttpClient(request)),
    );
    let served = 0;
    const cpuBefore = await cpuTicks(servers[kind].child.pid);
    const end = performance.now() + LOAD_MS;
    await Promise.all(clients.map(async (each) => {
      while (performance.now() < end) {
        await each.send();
        served++;
      }
      each.close();
    }));
    rps[kind].push(served / (LOAD_MS / 1000));
    cpu[kind].push((await cpuTicks(servers[kind].child.pid) - cpuBefore) * 10_000 / served);
  }
}
for (const { child } of Object.values(servers)) {
  child.kill();
  await child.status;
}
const latency = median(p50.guarded) / median(p50.bare);
const throughput = median(rps.guarded) / median(rps.bare);
const cpuRatio = median(cpu.guarded) / median(cpu.bare);
console.log(`Slow-client guard: deno ${Deno.version.deno}, median of ${REPS} interleaved reps`);
console.log(
  `seq p50 ms: bare ${median(p50.bare).toFixed(4)}, guarded ${
    median(p50.guarded).toFixed(4)
  } (ratio ${latency.toFixed(2)})`,
);
console.log(
  `req/s on ${CONNECTIONS} connections: bare ${median(rps.bare).toFixed(0)}, guarded ${
    median(rps.guarded).toFixed(0)
  } (ratio ${throughput.toFixed(2)})`,
);
console.log(
  `server CPU µs/request: bare ${median(cpu.bare).toFixed(1)}, guarded ${
    median(cpu.guarded).toFixed(1)
  } (ratio ${cpuRatio.toFixed(2)})`,
);
