/**
 * The scale bench's floor: chat turns of the model loop alone in this process, on Lass's demo
 * model with one local tool (no HTTP, no MCP, no chat run around it): either the AI SDK's
 * `streamText`, or Lass's step loop (`core/chat/model_steps.ts`, each step one model call of
 * `model_call.ts`). Prints `{"cpuPerTurnMs": n}` for
 * `deno run -A _sdk_floor.ts <turns> <concurrency> <stream-text|steps>`.
 */
import process from "node:process";
import { dynamicTool, experimental_streamTextLowMemory, isStepCount, jsonSchema } from "ai";
import { createDemoModel } from "../core/llm/demo/model.ts";
import { modelSteps } from "../core/chat/model_steps.ts";

const [turns, concurrency] = Deno.args.slice(0, 2).map(Number);
const loop = Deno.args[2] === "steps" ? "steps" : "stream-text";
const model = createDemoModel("demo");
const tools = {
  demo__add: dynamicTool({
    description: "Adds two numbers and returns the sum.",
    inputSchema: jsonSchema({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
    }),
    execute: (input) => {
      const { a, b } = input as { a: number; b: number };
      return Promise.resolve({ type: "text" as const, value: String(a + b) });
    },
    toModelOutput: ({ output }) => output as { type: "text"; value: string },
  }),
};

/** One turn of `streamText`. */
async function streamTextTurn(): Promise<void> {
  const result = experimental_streamTextLowMemory({
    model,
    messages: [{ role: "user", content: "Add 2 and 3 with a tool" }],
    tools,
    stopWhen: isStepCount(5),
    maxRetries: 1,
    telemetry: { isEnabled: false },
    onError: () => {},
    onEnd: () => {},
  });
  let results = 0;
  for await (const part of result.stream) if (part.type === "tool-result") results++;
  if (results !== 1) throw new Error(`a turn had ${results} tool results`);
}

/** One turn of Lass's step loop. */
async function stepsTurn(): Promise<void> {
  const steps = modelSteps({
    model,
    settings: {},
    messages: [{ role: "user", content: "Add 2 and 3 with a tool" }],
    tools,
    maxSteps: 5,
    signal: new AbortController().signal,
  });
  let results = 0;
  for await (const part of steps) if (part.type === "tool-result") results++;
  if (results !== 1) throw new Error(`a turn had ${results} tool results`);
}

const turn = loop === "steps" ? stepsTurn : streamTextTurn;

async function run(count: number): Promise<void> {
  const lane = async () => {
    for (let i = 0; i < count / concurrency; i++) await turn();
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}

await run(Math.min(turns, 200));
const before = process.cpuUsage();
await run(turns);
const used = process.cpuUsage(before);
console.log(JSON.stringify({ cpuPerTurnMs: (used.user + used.system) / 1000 / turns }));
