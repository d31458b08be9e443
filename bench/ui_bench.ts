/**
 * Benchmarks the web UI in headless Chromium against the real server (`main.ts` as a child
 * process), each figure beside a baseline measured in the same run:
 *
 * (a) the chat page's JavaScript, gzipped, against the 150 KB budget;
 * (b) the chat page's first render (starter chips drawn from the config) against a bare HTML page
 *     from the same server in the same browser; goal under 1 s;
 * (c) a streamed answer of 2,000 text chunks: when each chunk was received by the page (read
 *     from a tee of the chat response) against when its text was painted (sampled every frame),
 *     back to back and paced at 2 ms per chunk.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { buildUi } from "../scripts/build_ui.ts";
import {
  type FakeTurn,
  type RecordedRequest,
  startFakeVendor,
  VENDOR_PREFIXES,
} from "../tests/fixtures/fake_vendors.ts";
import { BENCH_TOKEN, startLassProcess } from "./_lass_process.ts";

const CHROMIUM = "/usr/bin/chromium";
const ARGS = [
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
];
const BUDGET_GZIP_KB = 150;
const GOAL_FIRST_RENDER_MS = 1000;
const RENDER_RUNS = 10;
const STREAM_CHUNKS = 2000;
const STREAM_REPS = 3;
const PACED_DELAY_MS = 2;
const STARTER = "tell me a long story";

/** Counts the text of `/api/chat` as the page receives it, and the painted text every frame. */
const INSTRUMENT = `(() => {
  const received = [];
  const painted = [];
  window.__lassStream = { received, painted, done: false, start: 0 };
  const original = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const response = await original(input, init);
    const url = typeof input === "string" ? input : input.url;
    if (!url.includes("/api/chat") || !response.body) return response;
    window.__lassStream.start = performance.now();
    const [mine, theirs] = response.body.tee();
    (async () => {
      const reader = mine.pipeThrough(new TextDecoderStream()).getReader();
      let buffered = "";
      let chars = 0;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffered += value;
        let at;
        while ((at = buffered.indexOf("\\n")) >= 0) {
          const line = buffered.slice(0, at);
          buffered = buffered.slice(at + 1);
          if (line.startsWith('{"type":"text"')) {
            chars += JSON.parse(line).text.length;
            received.push([performance.now(), chars]);
          }
        }
      }
      window.__lassStream.done = true;
    })();
    return new Response(theirs, response);
  };
  const sample = () => {
    const turns = document.querySelectorAll(".turn");
    const last = turns[turns.length - 1];
    if (last) {
      let chars = 0;
      for (const rich of last.querySelectorAll(".msg-assistant .rich")) chars += rich.textContent.length;
      const previous = painted[painted.length - 1];
      if (!previous || previous[1] !== chars) painted.push([performance.now(), chars]);
    }
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
})();`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const ms = (value: number) => `${value.toFixed(0)} ms`;

/** What the fake vendor answers: 2,000 text deltas for the long prompt, paced or not. */
function fakeTurn(pacedMs: () => number) {
  return (request: RecordedRequest): FakeTurn => {
    const body = request.body as { messages?: { content?: unknown }[] } | null;
    const last = body?.messages?.at(-1)?.content;
    if (typeof last === "string" && last.includes(STARTER)) {
      return {
        text: Array.from({ length: STREAM_CHUNKS }, (_, i) => `w${i} `),
        chunkDelayMs: pacedMs(),
      };
    }
    return { text: ["Hi", "."] };
  };
}

function config(fakeUrl: string) {
  return {
    llms: [{
      id: "fake",
      name: "Fake",
      provider: "compatible-api",
      model: "fake-large",
      baseURL: fakeUrl + VENDOR_PREFIXES.compatible,
    }],
    workspaces: [{
      id: "bench",
      name: "Bench",
      llmId: "fake",
      starterPrompts: [STARTER],
      generativeUi: false,
    }],
    activeWorkspaceId: "bench",
  };
}

const withToken = (base: string, path = "/") => `${base}${path}?token=${BENCH_TOKEN}`;

/** (b): medians over fresh contexts, the first run of each kind left out as warm-up. */
async function firstRender(browser: Browser, base: string) {
  const app: number[] = [];
  const bare: number[] = [];
  for (let run = 0; run <= RENDER_RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    // The bare page: the server's small HTML page for a request without the token.
    await page.goto(`${base}/chat`);
    await page.locator("h1").waitFor();
    const bareMs = await page.evaluate(
      `performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd`,
    ) as number;
    await page.goto(withToken(base));
    await page.locator(".chip").waitFor();
    const appMs = await page.evaluate(`performance.now()`) as number;
    await context.close();
    if (run > 0) {
      bare.push(bareMs);
      app.push(appMs);
    }
  }
  return {
    runs: app.length,
    appMedianMs: median(app),
    appMaxMs: Math.max(...app),
    bareMedianMs: median(bare),
  };
}

interface StreamRun {
  receivedMs: number;
  paintedMs: number;
  lagP50Ms: number;
  lagP95Ms: number;
  lagMaxMs: number;
  finalLagMs: number;
  frames: number;
  chunks: number;
}

/** (c): one streamed answer; lag of each received chunk until its text was painted. */
async function streamOnce(browser: Browser, base: string): Promise<StreamRun> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(INSTRUMENT);
  const page = await context.newPage();
  await page.goto(withToken(base));
  await page.locator(".chip", { hasText: STARTER }).click();
  const finished = `window.__lassStream.done && (() => {
    const { painted, received } = window.__lassStream;
    return painted.length > 0 && received.length > 0 &&
      painted[painted.length - 1][1] >= received[received.length - 1][1];
  })()`;
  const deadline = Date.now() + 60_000;
  while (!(await page.evaluate(finished))) {
    if (Date.now() > deadline) throw new Error("the answer was not painted within 60 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { received, painted, start } = await page.evaluate(`window.__lassStream`) as {
    received: [number, number][];
    painted: [number, number][];
    start: number;
  };
  await context.close();
  const lags = received.map(([time, chars]) => {
    const shown = painted.find(([, paintedChars]) => paintedChars >= chars);
    return (shown ? shown[0] : Infinity) - time;
  });
  const lastReceived = received[received.length - 1];
  const fullyPainted = painted.find(([, chars]) => chars >= lastReceived[1])!;
  return {
    receivedMs: lastReceived[0] - start,
    paintedMs: fullyPainted[0] - start,
    lagP50Ms: percentile(lags, 0.5),
    lagP95Ms: percentile(lags, 0.95),
    lagMaxMs: Math.max(...lags),
    finalLagMs: fullyPainted[0] - lastReceived[0],
    frames: painted.length,
    chunks: received.length,
  };
}

async function main(): Promise<void> {
  console.log(
    `Lass web UI bench: deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} CPUs`,
  );
  const { manifest } = await buildUi({ ifStale: true });
  const chatJs = [manifest.entry, ...manifest.preload];
  const gzipBytes = chatJs.reduce((sum, name) => sum + manifest.files[name].gzipBytes, 0);
  const lazy = Object.entries(manifest.files)
    .filter(([name]) => name.endsWith(".js") && !chatJs.includes(name))
    .map(([name, file]) => `${name} ${(file.gzipBytes / 1024).toFixed(1)} KB`);

  let paced = 0;
  const fake = await startFakeVendor();
  fake.script(fakeTurn(() => paced));
  const dir = await Deno.makeTempDir({ prefix: "lass-ui-bench-" });
  const home = await mkdtemp(join(tmpdir(), "lass-ui-bench-chromium-"));
  const lass = await startLassProcess(dir, config(fake.url));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    env: { ...Deno.env.toObject(), XDG_CONFIG_HOME: join(home, "c"), XDG_CACHE_HOME: home },
  });
  try {
    console.error("(b) first render...");
    const render = await firstRender(browser, lass.base);
    const streams: Record<string, StreamRun[]> = {
      "back to back": [],
      [`paced ${PACED_DELAY_MS} ms`]: [],
    };
    for (let rep = 0; rep < STREAM_REPS; rep++) {
      for (
        const [name, delay] of [["back to back", 0], [
          `paced ${PACED_DELAY_MS} ms`,
          PACED_DELAY_MS,
        ]] as const
      ) {
        console.error(`(c) ${name}, rep ${rep + 1}...`);
        paced = delay;
        const run = await streamOnce(browser, lass.base);
        if (run.chunks !== STREAM_CHUNKS) {
          throw new Error(`${run.chunks} of ${STREAM_CHUNKS} chunks`);
        }
        streams[name].push(run);
      }
    }

    console.log(
      `\n(a) Chat page JavaScript: ${(gzipBytes / 1024).toFixed(1)} KB gzip ` +
        `(${chatJs.length} files; budget ${BUDGET_GZIP_KB} KB: ` +
        `${gzipBytes / 1024 < BUDGET_GZIP_KB ? "met" : "NOT met"})`,
    );
    console.log(`    loaded on demand: ${lazy.join(", ")}`);
    console.log(
      `\n(b) First render, median of ${render.runs} fresh contexts: chat with its config ` +
        `${ms(render.appMedianMs)} (max ${ms(render.appMaxMs)}); bare page ${
          ms(render.bareMedianMs)
        }; ` +
        `ratio ${
          (render.appMedianMs / render.bareMedianMs).toFixed(1)
        }x; goal < ${GOAL_FIRST_RENDER_MS} ms: ` +
        `${render.appMedianMs < GOAL_FIRST_RENDER_MS ? "met" : "NOT met"}`,
    );
    console.log(
      `\n(c) ${STREAM_CHUNKS} text chunks, received vs painted (median of ${STREAM_REPS}):`,
    );
    console.log(
      "| stream | all received | all painted | painted / received | lag p50 | lag p95 | lag max | frames |",
    );
    console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (const [name, runs] of Object.entries(streams)) {
      const m = (pick: (run: StreamRun) => number) => median(runs.map(pick));
      console.log(
        `| ${name} | ${ms(m((r) => r.receivedMs))} | ${ms(m((r) => r.paintedMs))} | ` +
          `${(m((r) => r.paintedMs / r.receivedMs)).toFixed(3)} | ${ms(m((r) => r.lagP50Ms))} | ` +
          `${ms(m((r) => r.lagP95Ms))} | ${ms(m((r) => r.lagMaxMs))} | ${m((r) => r.frames)} |`,
      );
    }
    console.log();
    console.log(JSON.stringify({ date: new Date().toISOString(), gzipBytes, render, streams }));
  } finally {
    await browser.close();
    await lass.stop();
    await fake.close();
    await rm(dir, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    console.error(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
    Deno.exitCode = 1;
  }
}
