/**
 * Start-up: `deno task start` to the first 200 of `GET /api/health`, on a warm cache (Deno's module
 * cache, the UI build, and the validated config of the unchanged config file), against a
 * bare `Deno.serve` started with `deno run` (the floor of starting Deno and listening), runs
 * interleaved. Also the idle RSS of the server process once healthy.
 *
 * `deno run --allow-all bench/start_bench.ts [--runs 9]`
 */
import { median } from "./_stats.ts";
import { flag, rssMb, tree } from "./_proc.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const READY = /Lass ready: http:\/\/127\.0\.0\.1:(\d+)\/|^ready (\d+)$/m;
const READY_TIMEOUT_MS = 60_000;
const GOALS = { startMs: 150, idleRssMb: 60 };

const BASELINE_SOURCE =
  `Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log("ready " + port) },
  () => Response.json({ ok: true }));`;

/** One start: spawn to the first 200 of the health route, and the idle RSS of the server. */
interface Start {
  ms: number;
  rssMb: number;
}

/** The RSS of the server `root` started: the deepest process of its tree (`deno task` runs it as a child). */
async function serverRssMb(root: number): Promise<number> {
  const pids = await tree(root);
  return await rssMb(pids[pids.length - 1], { alone: true });
}

/** Spawns `args`, waits for its ready line and a 200 from `path`, measures, and stops it. */
async function timeStart(
  args: string[],
  path: string,
  env: Record<string, string>,
): Promise<Start> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    let text = "";
    let match: RegExpExecArray | null = null;
    const deadline = started + READY_TIMEOUT_MS;
    while (!(match = READY.exec(text))) {
      const { value, done } = await reader.read();
      if (done || performance.now() > deadline) {
        throw new Error(`no ready line from deno ${args.join(" ")}: ${text}${await stderr}`);
      }
      text += value;
    }
    const port = Number(match[1] ?? match[2]);
    for (;;) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`).catch(() => undefined);
      await response?.body?.cancel();
      if (response?.status === 200) break;
    }
    const ms = performance.now() - started;
    return { ms, rssMb: await serverRssMb(child.pid) };
  } finally {
    child.kill("SIGTERM");
    await child.status;
    reader.releaseLock();
    await child.stdout.cancel().catch(() => {});
    await stderr;
  }
}

async function main(): Promise<void> {
  const runs = flag("--runs", 9);
  console.log(`Lass start bench: deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} CPUs`);
  const dir = await Deno.makeTempDir({ prefix: "lass-start-bench-" });
  const baselineFile = `${dir}/baseline.ts`;
  await Deno.writeTextFile(baselineFile, BASELINE_SOURCE);
  const lassEnv = {
    LASS_CONFIG: `${dir}/service.json`,
    LASS_DATA_DIR: `${dir}/data`,
    LASS_TOKEN: "bench-token",
    LASS_PORT: "0",
    LASS_SANDBOX_PORT: "0",
  };
  const sides = {
    baseline: () => timeStart(["run", "--allow-net", baselineFile], "/", {}),
    "deno task start": () => timeStart(["task", "-q", "start"], "/api/health", lassEnv),
  };
  const results: Record<string, Start[]> = Object.fromEntries(
    Object.keys(sides).map((name) => [name, []]),
  );
  try {
    // Warm-up: the module caches, the config file and the UI build.
    for (const run of Object.values(sides)) await run();
    for (let i = 0; i < runs; i++) {
      for (const [name, run] of Object.entries(sides)) results[name].push(await run());
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const summary = Object.fromEntries(
    Object.entries(results).map((
      [name, starts],
    ) => [name, {
      medianMs: median(starts.map((s) => s.ms)),
      minMs: Math.min(...starts.map((s) => s.ms)),
      rssMb: median(starts.map((s) => s.rssMb)),
    }]),
  );
  console.log(`\nSpawn to the first 200, ${runs} interleaved runs each (ms), and idle RSS:`);
  for (const [name, s] of Object.entries(summary)) {
    console.log(
      `  ${name.padEnd(16)} median ${s.medianMs.toFixed(0).padStart(4)}  min ${
        s.minMs.toFixed(0).padStart(4)
      }  RSS ${s.rssMb.toFixed(1)} MB`,
    );
  }
  const lass = summary["deno task start"];
  const line = (pass: boolean, text: string) => console.log(`  ${pass ? "PASS" : "FAIL"}  ${text}`);
  console.log("\nGoals (informational):");
  line(
    lass.medianMs < GOALS.startMs,
    `deno task start to healthy < ${GOALS.startMs} ms (${lass.medianMs.toFixed(0)})`,
  );
  line(lass.rssMb < GOALS.idleRssMb, `idle RSS < ${GOALS.idleRssMb} MB (${lass.rssMb.toFixed(1)})`);
  console.log(JSON.stringify({ date: new Date().toISOString(), runs, summary, results }));
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    console.error(`bench failed: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exitCode = 1;
  }
}
