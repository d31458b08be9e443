/**
 * A compare turn against the same turns run on their own: on the real server with the demo model
 * and demo tool server, a `POST /api/chat/compare` of three columns against three
 * `POST /api/chat` turns started at once (the time of the slowest), interleaved round by round.
 */
import { BENCH_TOKEN, startLassProcess } from "./_lass_process.ts";
import { flag } from "./_proc.ts";
import { median, round } from "./_stats.ts";
import { DEMO_LLM } from "./_demo_llm.ts";

const ROUNDS = flag("--rounds", 30);
const WARMUP = flag("--warmup", 5);
const COLUMNS = 3;
const GOAL_RATIO = 1.2;
const PROMPT = "please add 2 and 3";

const demoLlm = (id: string) => ({ ...DEMO_LLM, id, name: id });
const llmIds = Array.from({ length: COLUMNS }, (_, i) => `demo-${i + 1}`);
const config = {
  llms: llmIds.map(demoLlm),
  mcpServers: [{ id: "demo", name: "Demo tools", transport: "stdio", command: "service:demo" }],
  workspaces: [{ id: "w", name: "W", llmId: llmIds[0], mcpServerIds: ["demo"] }],
  activeWorkspaceId: "w",
};

const dir = await Deno.makeTempDir({ prefix: "lass-compare-bench-" });
const lass = await startLassProcess(dir, config);
const headers = { "content-type": "application/json", "x-service-token": BENCH_TOKEN };
const messages = [{ role: "user", content: PROMPT }];

/** Posts a streamed route and reads it to its end; throws when it does not end as it should. */
async function stream(path: string, body: unknown, last: string): Promise<void> {
  const response = await fetch(`${lass.base}${path}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const final = JSON.parse(text.trimEnd().split("\n").at(-1) ?? "{}");
  if (final.type !== last) throw new Error(`${path} ended with ${text.slice(-300)}`);
}

/** Milliseconds of one compare turn of every column. */
async function compareTurn(): Promise<number> {
  const started = performance.now();
  await stream(
    "/api/chat/compare",
    { messages, columns: llmIds.map((llmId) => ({ llmId })) },
    "compare-summary",
  );
  return performance.now() - started;
}

/** Milliseconds until the slowest of one turn per column, started at once, ended. */
async function singleTurns(): Promise<number> {
  const started = performance.now();
  await Promise.all(llmIds.map((llmId) => stream("/api/chat", { messages, llmId }, "finish")));
  return performance.now() - started;
}

try {
  for (let i = 0; i < WARMUP; i++) await Promise.all([compareTurn(), singleTurns()]);
  const compared: number[] = [];
  const singles: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    // Interleaved, each side first in every other round, so drift hits both alike.
    if (i % 2 === 0) {
      compared.push(await compareTurn());
      singles.push(await singleTurns());
    } else {
      singles.push(await singleTurns());
      compared.push(await compareTurn());
    }
  }
  const compareP50 = round(median(compared), 1);
  const singleP50 = round(median(singles), 1);
  const ratio = round(median(compared) / median(singles), 3);
  console.log(
    `A compare turn of ${COLUMNS} columns vs ${COLUMNS} single turns at once ` +
      `(demo model, "${PROMPT}": one tool call each), ${ROUNDS} rounds\n`,
  );
  console.log("| side | p50 | min | max |");
  console.log("| --- | --- | --- | --- |");
  for (const [label, times] of [["compare", compared], ["slowest single", singles]] as const) {
    console.log(
      `| ${label} | ${round(median(times), 1)} ms | ${round(Math.min(...times), 1)} ms | ${
        round(Math.max(...times), 1)
      } ms |`,
    );
  }
  console.log(`\ncompare p50 ${compareP50} ms / slowest single p50 ${singleP50} ms = ${ratio}`);
  console.log(
    `Goal: ≤ ${GOAL_RATIO}×: ${ratio <= GOAL_RATIO ? "met" : "NOT met"}`,
  );
} finally {
  await lass.stop();
  await Deno.remove(dir, { recursive: true });
}
