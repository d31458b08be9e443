/**
 * `lass chat "Add 2 and 3 with a tool"` on the demo model, process start to exit, against the MCP
 * Inspector's CLI (`@modelcontextprotocol/inspector` 2.12 `--cli`, Node 22 from `npx -p node@22`)
 * calling the same tool of the same demo server (`lass demo-server`). Each side runs Lass in two
 * forms: the one file `deno task build` writes (`dist/lass.js`, built here when stale, unpacked
 * into a temp cache folder by the warm-up run) and the source tree (`main.ts`). All run in one go,
 * interleaved, several times; the medians count (beside them, the median of each round's own ratio,
 * which a machine that drifts during the run moves less). Goal: `lass chat` at most half the
 * Inspector's time, the one file on both sides. Beside them runs the floor: the same turn done by
 * the SDKs alone (`_cli_floor.ts`, bundled into one minified file here), the least a chat command
 * built on them can take.
 *
 * The Inspector is installed with npm into a temp folder outside the repo (kept between runs;
 * `LASS_BENCH_INSPECTOR_DIR` picks another). `LASS_BENCH_REPEATS` sets the repeats (default 7).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildBundles } from "../scripts/build_bundle.ts";
import { START_RUN } from "../scripts/permissions.ts";
import { median } from "./_stats.ts";
import { DEMO_LLM } from "./_demo_llm.ts";

const MAIN_TS = new URL("../main.ts", import.meta.url).pathname;
const FLOOR_TS = fileURLToPath(new URL("_cli_floor.ts", import.meta.url));
const INSPECTOR_VERSION = "2.12";
const PROMPT = "Add 2 and 3 with a tool";
const GOAL_RATIO = 0.5;
/** The cache folder of the unpacked `dist/lass.js` (set by `main`, a temp folder). */
let cacheDir = "";

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a command to its end, timing it from spawn to exit. */
async function timed(command: string, args: string[], cwd?: string): Promise<Ran> {
  const started = performance.now();
  const output = await new Deno.Command(command, {
    args,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", LASS_CACHE_DIR: cacheDir },
  }).output();
  const ms = performance.now() - started;
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr), ms };
}

/** Fails with the command's output when it did not do what it should. */
function expect(ran: Ran, ok: boolean, what: string): void {
  if (ran.code !== 0 || !ok) {
    throw new Error(`${what} failed (exit ${ran.code}):\n${ran.stdout}\n${ran.stderr}`);
  }
}

/** The Inspector's CLI entry, installed into `dir` with npm if it is not there yet. */
async function inspectorEntry(dir: string): Promise<string> {
  const root = join(dir, "node_modules", "@modelcontextprotocol", "inspector");
  const installed = await Deno.readTextFile(join(root, "package.json"))
    .then((text) => (JSON.parse(text) as { version: string }).version)
    .catch(() => "");
  if (!installed.startsWith(`${INSPECTOR_VERSION}.`)) {
    console.error(`installing @modelcontextprotocol/inspector@${INSPECTOR_VERSION} in ${dir}...`);
    await Deno.mkdir(dir, { recursive: true });
    await writeFile(join(dir, "package.json"), '{"private": true}\n');
    const ran = await timed("npm", [
      "install",
      "--no-audit",
      "--no-fund",
      `@modelcontextprotocol/inspector@${INSPECTOR_VERSION}`,
    ], dir);
    expect(ran, true, "npm install of the Inspector");
  }
  const { bin } = JSON.parse(await Deno.readTextFile(join(root, "package.json"))) as {
    bin: Record<string, string>;
  };
  return join(root, bin["mcp-inspector"]);
}

/** The path of a Node 22 binary, from `npx -p node@22` (the machine's Node may be older). */
async function node22(): Promise<string> {
  const ran = await timed("npx", [
    "-y",
    "-p",
    "node@22",
    "--",
    "node",
    "-e",
    "process.stdout.write(process.execPath + ' ' + process.version)",
  ]);
  expect(ran, /^\S+ v22\./.test(ran.stdout), "npx -p node@22");
  const [path, version] = ran.stdout.split(" ");
  console.error(`Node ${version}: ${path}`);
  return path;
}

/** A config with the demo model and the built-in demo server. */
function demoConfig(): Record<string, unknown> {
  const server = { command: "service:demo" };
  return {
    llms: [DEMO_LLM],
    mcpServers: [{ id: "demo", name: "Demo tools", transport: "stdio", ...server }],
    // A loaded machine may take more than the default 3 s to start a child server.
    workspaces: [{ id: "w", name: "W", mcpServerIds: ["demo"], toolServerWaitMs: 60_000 }],
    activeWorkspaceId: "w",
  };
}

async function main(): Promise<void> {
  const repeats = Number(Deno.env.get("LASS_BENCH_REPEATS") ?? "7");
  const inspectorDir = Deno.env.get("LASS_BENCH_INSPECTOR_DIR") ??
    join(tmpdir(), "lass-bench-inspector");
  const [entry, node] = [await inspectorEntry(inspectorDir), await node22()];
  const [lassJs] = (await buildBundles({ ifStale: true })).files;
  const dir = await mkdtemp(join(tmpdir(), "lass-cli-bench-"));
  cacheDir = join(dir, "cache");
  try {
    await writeFile(join(dir, "builtin.json"), JSON.stringify(demoConfig()));
    const floorJs = join(dir, "floor.js");
    const bundled = await timed(Deno.execPath(), [
      "bundle",
      "--platform",
      "deno",
      "--minify",
      "--quiet",
      "-o",
      floorJs,
      FLOOR_TS,
    ], fileURLToPath(new URL("..", import.meta.url)));
    expect(bundled, true, "deno bundle of the floor");
    const lassChat = (lass: string) => () =>
      timed(Deno.execPath(), [
        "run",
        ...START_RUN,
        lass,
        "chat",
        "--config",
        join(dir, "builtin.json"),
        "--data-dir",
        join(dir, "data"),
        PROMPT,
      ]);
    const inspectorCall = (lass: string) => () =>
      timed(node, [
        entry,
        "--cli",
        Deno.execPath(),
        "run",
        ...START_RUN,
        lass,
        "demo-server",
        "--method",
        "tools/call",
        "--tool-name",
        "add",
        "--tool-arg",
        "a=2",
        "--tool-arg",
        "b=3",
      ], inspectorDir);
    const sides = {
      "SDKs alone, one file": () => timed(Deno.execPath(), ["run", ...START_RUN, floorJs, PROMPT]),
      "lass chat, dist/lass.js": lassChat(lassJs),
      "lass chat, main.ts": lassChat(MAIN_TS),
      "inspector --cli, dist/lass.js demo-server": inspectorCall(lassJs),
      "inspector --cli, main.ts demo-server": inspectorCall(MAIN_TS),
    };
    const lassAnswered = (ran: Ran) => ran.stdout.includes("returned 5");
    const inspectorAnswered = (ran: Ran) => /"sum":\s*5/.test(ran.stdout);
    const checks: Record<keyof typeof sides, (ran: Ran) => boolean> = {
      "SDKs alone, one file": (ran) => /returned .*"sum":5/.test(ran.stdout),
      "lass chat, dist/lass.js": lassAnswered,
      "lass chat, main.ts": lassAnswered,
      "inspector --cli, dist/lass.js demo-server": inspectorAnswered,
      "inspector --cli, main.ts demo-server": inspectorAnswered,
    };
    const names = Object.keys(sides) as (keyof typeof sides)[];
    const times = Object.fromEntries(names.map((name) => [name, [] as number[]]));
    // One warm-up run each (module caches, npm), then the repeats, in a rotating order.
    for (let round = -1; round < repeats; round++) {
      const order = names.map((_, i) => names[(i + Math.max(round, 0)) % names.length]);
      for (const name of order) {
        const ran = await sides[name]();
        expect(ran, checks[name](ran), name);
        if (round >= 0) times[name].push(ran.ms);
      }
      console.error(`round ${round + 1} of ${repeats} done`);
    }
    console.log(
      `\nProcess start to exit, median of ${repeats} (load average ${
        Deno.loadavg().map((n) => n.toFixed(1)).join(" ")
      }, ${navigator.hardwareConcurrency} CPUs):`,
    );
    const results: Record<string, { medianMs: number }> = {};
    for (const name of names) {
      const ms = median(times[name]);
      results[name] = { medianMs: Math.round(ms) };
      console.log(`  ${name.padEnd(44)} ${String(Math.round(ms)).padStart(6)} ms`);
    }
    // The ratio of the medians, and the median of each round's own ratio: a round runs both sides
    // within a second or two, so a machine that speeds up or slows down over the run moves both.
    const ratio = (lass: keyof typeof sides, inspector: keyof typeof sides) => ({
      ofMedians: Number((median(times[lass]) / median(times[inspector])).toFixed(2)),
      perRound: Number(
        median(times[lass].map((ms, round) => ms / times[inspector][round])).toFixed(2),
      ),
    });
    const ratios = {
      "dist/lass.js": ratio("lass chat, dist/lass.js", "inspector --cli, dist/lass.js demo-server"),
      "main.ts": ratio("lass chat, main.ts", "inspector --cli, main.ts demo-server"),
      floor: ratio("SDKs alone, one file", "inspector --cli, dist/lass.js demo-server"),
    };
    for (const [form, value] of Object.entries(ratios)) {
      const what = form === "floor"
        ? "SDKs alone / inspector on dist/lass.js"
        : `lass chat / inspector, both on ${form}`;
      console.log(
        `  ${what}: ${value.ofMedians.toFixed(2)}x ` +
          `(median of the rounds' own ratios ${value.perRound.toFixed(2)}x)`,
      );
    }
    const goal = ratios["dist/lass.js"].ofMedians;
    const met = goal <= GOAL_RATIO;
    console.log(
      `Goal lass chat <= ${GOAL_RATIO}x the Inspector (dist/lass.js): ${met ? "met" : "NOT met"} (${
        goal.toFixed(2)
      }x)`,
    );
    console.log(
      JSON.stringify({ date: new Date().toISOString(), repeats, results, ratios, goalMet: met }),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
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
