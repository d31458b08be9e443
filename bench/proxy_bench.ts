/**
 * Lass's MCP proxy against no proxy, side by side in one run: a `tools/call` to server-everything
 * over Streamable HTTP through `/mcp/:id` and directly; over stdio through `lass proxy -- <command>`
 * and directly, and through `lass proxy --url` (traced, a hold in force on another method); and 50
 * client sessions at once through `/mcp/:id` (a Streamable HTTP server passed through, and the
 * in-process demo bridged), all of which must be served. Two floors run in the same rounds: a TCP
 * byte relay and a bare HTTP relay (`_relay.ts`), what any process in the middle costs here.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { EVERYTHING, freePort, startEverything } from "../tests/_everything.ts";
import { BENCH_TOKEN, startLassProcess } from "./_lass_process.ts";
import { flag } from "./_proc.ts";
import { median, round } from "./_stats.ts";

const MAIN_TS = new URL("../main.ts", import.meta.url).pathname;
const ROUNDS = flag("--rounds", 10);
const CALLS_PER_ROUND = flag("--calls", 200);
const SESSIONS = flag("--sessions", 50);
const GOAL_ADDED_P50_MS = 0.3;

/** One tool call's milliseconds, `CALLS_PER_ROUND` times. */
async function timeCalls(client: Client): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < CALLS_PER_ROUND; i++) {
    const started = performance.now();
    await client.callTool({ name: "get-sum", arguments: { a: i, b: 1 } });
    times.push(performance.now() - started);
  }
  return times;
}

/** Connects an SDK client over Streamable HTTP (with the Lass token when given). */
async function httpClient(url: string, token?: string, name = "bench"): Promise<Client> {
  const client = new Client({ name, version: "1.0.0" }, { capabilities: {} });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      ...(token && { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    }),
  );
  return client;
}

/** Connects an SDK client to a command over stdio. */
async function stdioClient(command: string, args: string[]): Promise<Client> {
  const client = new Client({ name: "bench", version: "1.0.0" }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command, args, stderr: "ignore" }));
  return client;
}

/** Rounds of calls on both clients in turns (which goes first alternates); p50 and p99 of each. */
async function sideBySide(direct: Client, proxied: Client) {
  await timeCalls(direct);
  await timeCalls(proxied);
  const times = { direct: [] as number[], proxied: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ["direct", "proxied"] as const : ["proxied", "direct"] as const;
    for (const side of order) {
      times[side].push(...await timeCalls(side === "direct" ? direct : proxied));
    }
  }
  const p = (list: number[], q: number) =>
    [...list].sort((a, b) => a - b)[Math.floor(q * (list.length - 1))];
  return {
    directP50: round(median(times.direct), 3),
    proxiedP50: round(median(times.proxied), 3),
    directP99: round(p(times.direct, 0.99), 3),
    proxiedP99: round(p(times.proxied, 0.99), 3),
    addedP50: round(median(times.proxied) - median(times.direct), 3),
  };
}

/** `SESSIONS` clients connect at once and call one tool each; how many were served, and how fast. */
async function concurrentSessions(url: string, tool: { name: string; arguments: object }) {
  const started = performance.now();
  const results = await Promise.allSettled(
    Array.from({ length: SESSIONS }, async (_, i) => {
      const client = await httpClient(url, BENCH_TOKEN, `client-${i}`);
      try {
        await client.callTool(tool as never);
      } finally {
        await client.close();
      }
    }),
  );
  const failed = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
  return {
    served: results.length - failed.length,
    ms: Math.round(performance.now() - started),
    firstError: failed[0] ? String(failed[0].reason?.message ?? failed[0].reason) : undefined,
  };
}

/** Holds `methods` on the record `remote` of the running Lass, for this run (`null`: none). */
async function setHolds(methods: string[] | null): Promise<void> {
  const response = await fetch(`${lass.base}/api/mcp/remote/proxy/holds`, {
    method: "PUT",
    headers: { "content-type": "application/json", "x-service-token": BENCH_TOKEN },
    body: JSON.stringify({ methods }),
  });
  if (!response.ok) throw new Error(`PUT holds: ${response.status} ${await response.text()}`);
  await response.body?.cancel();
}

/** A floor relay (`_relay.ts`) to `upstream` in a process of its own; its URL once it listens. */
async function startRelay(mode: "tcp" | "http", upstream: string) {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./_relay.ts", import.meta.url).pathname,
      mode,
      upstream,
      `${port}`,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  if (!new TextDecoder().decode(value).includes("ready")) throw new Error(`${mode} relay failed`);
  reader.releaseLock();
  return {
    url: new URL(new URL(upstream).pathname, `http://127.0.0.1:${port}`).href,
    stop: async () => {
      child.kill();
      await child.status;
      await child.stdout.cancel().catch(() => {});
    },
  };
}

const everything = await startEverything("streamableHttp");
const relays = [
  await startRelay("tcp", everything.url),
  await startRelay("http", everything.url),
];
const dir = await Deno.makeTempDir({ prefix: "lass-proxy-bench-" });
const lass = await startLassProcess(dir, {
  mcpServers: [
    { id: "remote", name: "Remote", transport: "http", url: everything.url },
    { id: "demo", name: "Demo", transport: "stdio", command: "service:demo" },
  ],
});
try {
  const direct = await httpClient(everything.url);
  const proxied = await httpClient(`${lass.base}/mcp/remote`, BENCH_TOKEN);
  const http = await sideBySide(direct, proxied);
  // What any process in the middle costs here: copying bytes, and a bare HTTP relay.
  const floors = [];
  for (const relay of relays) {
    const relayed = await httpClient(relay.url);
    floors.push(await sideBySide(direct, relayed));
    await relayed.close();
  }
  await Promise.all([direct.close(), proxied.close()]);

  const everythingArgs = ["run", "-A", EVERYTHING, "stdio"];
  const stdioDirect = await stdioClient(Deno.execPath(), everythingArgs);
  const stdioProxied = await stdioClient(Deno.execPath(), [
    "run",
    "-A",
    MAIN_TS,
    "proxy",
    "--",
    Deno.execPath(),
    ...everythingArgs,
  ]);
  const stdio = await sideBySide(stdioDirect, stdioProxied);
  // The same through `lass proxy --url`: its traffic reported to Lass, and a hold in force on a
  // method it does not call; a tools/call takes no round trip to Lass.
  await setHolds(["prompts/get"]);
  const stdioWatched = await stdioClient(Deno.execPath(), [
    "run",
    "-A",
    MAIN_TS,
    "proxy",
    "--url",
    lass.base,
    "--token",
    BENCH_TOKEN,
    "--id",
    "remote",
    "--",
    Deno.execPath(),
    ...everythingArgs,
  ]);
  const watched = await sideBySide(stdioDirect, stdioWatched);
  await setHolds(null);
  await Promise.all([stdioDirect.close(), stdioProxied.close(), stdioWatched.close()]);

  const passedSessions = await concurrentSessions(`${lass.base}/mcp/remote`, {
    name: "get-sum",
    arguments: { a: 1, b: 2 },
  });
  const bridgedSessions = await concurrentSessions(`${lass.base}/mcp/demo`, {
    name: "echo",
    arguments: { text: "hi" },
  });

  // The floor of any HTTP relay here: one more loopback round trip, to Lass's health route.
  const hops: number[] = [];
  for (let i = 0; i < ROUNDS * CALLS_PER_ROUND; i++) {
    const started = performance.now();
    await (await fetch(`${lass.base}/api/health`)).arrayBuffer();
    hops.push(performance.now() - started);
  }
  const hopP50 = round(median(hops), 3);

  const calls = ROUNDS * CALLS_PER_ROUND;
  console.log(`Lass's MCP proxy, ${calls} tools/call (get-sum on server-everything) per side\n`);
  console.log("| path | direct p50 | proxied p50 | added p50 | direct p99 | proxied p99 |");
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (
    const [label, r] of [
      ["Streamable HTTP, /mcp/:id", http],
      ["floor: a TCP byte relay (no HTTP parsed)", floors[0]],
      ["floor: a bare HTTP relay (Deno.serve + fetch, nothing traced)", floors[1]],
      ["stdio, lass proxy --", stdio],
      ["stdio, lass proxy --url (traced, prompts/get held)", watched],
    ] as const
  ) {
    console.log(
      `| ${label} | ${r.directP50} ms | ${r.proxiedP50} ms | ${r.addedP50} ms | ${r.directP99} ms | ${r.proxiedP99} ms |`,
    );
  }
  console.log(
    `\nOne loopback HTTP round trip to Lass (GET /api/health, fetch): p50 ${hopP50} ms: the ` +
      "part of the added time that any HTTP relay in the middle costs here",
  );
  console.log(`\n${SESSIONS} client sessions at once (connect, one call, close):`);
  for (
    const [label, r] of [["/mcp/remote (passed through)", passedSessions], [
      "/mcp/demo (bridged)",
      bridgedSessions,
    ]] as const
  ) {
    console.log(
      `  ${label}: ${r.served}/${SESSIONS} served in ${r.ms} ms${
        r.firstError ? ` (first error: ${r.firstError})` : ""
      }`,
    );
  }
  const verdict = (ok: boolean) => ok ? "met" : "NOT met";
  console.log(
    `\nGoal: added p50 over Streamable HTTP ≤ ${GOAL_ADDED_P50_MS} ms: ${
      verdict(http.addedP50 <= GOAL_ADDED_P50_MS)
    }` +
      `; all ${SESSIONS} sessions served: ${
        verdict(passedSessions.served === SESSIONS && bridgedSessions.served === SESSIONS)
      }`,
  );
} finally {
  await lass.stop();
  for (const relay of relays) await relay.stop();
  await everything.stop();
  await Deno.remove(dir, { recursive: true });
}
