/**
 * The CLI bench's floor: `lass chat`'s job done by the SDKs alone, with nothing of Lass around
 * them but the demo server and the demo model it chats with. An MCP client connects to the demo
 * server in memory, lists its tools, and the AI SDK's `streamText` runs the turn on the demo model,
 * which calls `add`; the answer's text goes to stdout. Zod checks without compiling, as `lass chat`
 * sets it (`cli/options.ts`). The bench bundles this file into one minified file and runs it as
 * it runs `dist/lass.js`.
 */
import "./_cli_floor_jitless.ts";
import { Client } from "@modelcontextprotocol/client";
import { dynamicTool, isStepCount, jsonSchema, streamText } from "ai";
import { createDemoHandler } from "../core/mcp/demo/server.ts";
import { createDemoModel } from "../core/llm/demo/model.ts";

const demo = createDemoHandler();
const client = new Client({ name: "cli-floor", version: "1.0.0" });
await client.connect(demo.connect());
const { tools } = await client.listTools();
const result = streamText({
  model: createDemoModel("demo"),
  tools: Object.fromEntries(tools.map((tool) => [
    `demo__${tool.name}`,
    dynamicTool({
      description: tool.description,
      inputSchema: jsonSchema(tool.inputSchema as Parameters<typeof jsonSchema>[0]),
      execute: (input) =>
        client.callTool({ name: tool.name, arguments: input as Record<string, unknown> }),
    }),
  ])),
  messages: [{ role: "user", content: Deno.args[0] ?? "Add 2 and 3 with a tool" }],
  stopWhen: isStepCount(5),
});
let text = "";
for await (const part of result.fullStream) {
  if (part.type === "text-delta") text += part.text;
  if (part.type === "error") throw part.error;
}
console.log(text);
await client.close();
await demo.close();
