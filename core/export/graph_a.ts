/** The `graph-a` export: one TypeScript file that runs the workspace as a LangChain agent (`createAgent`) with MCP tools. */
import { modelCode } from "./_graph_a_model.ts";
import type { ExportResult } from "../../wire/export.ts";
import type { ServerPlan, WorkspacePlan } from "./_plan.ts";
import {
  approvalLiteral,
  arrayLiteral,
  ASK_HELPER,
  ENV_HELPER,
  expr,
  FOR_MODEL_HELPER,
  header,
  importLine,
  key,
  mainFunction,
  objectLiteral,
  str,
  templateLiteral,
  TOOL_NAME_HELPER,
  valueMap,
} from "./_ts.ts";
import { pinned, type PinnedPackage } from "./versions.ts";

const FILENAME = "agent.ts";

type Entry = [string, string];

/** One entry of `SERVERS`: the connection as `@langchain/mcp-adapters` takes it. */
function serverEntry(server: ServerPlan): string {
  const { record, connection } = server;
  const indent = "    ";
  let entries: Entry[];
  let kind: string;
  if (connection.transport === "stdio") {
    kind = connection.demo ? "Lass's built-in demo tool server, served by Lass's CLI" : "stdio";
    entries = [
      ["transport", '"stdio" as const'],
      ["command", expr(connection.command)],
      ["args", arrayLiteral(connection.args.map(expr), indent)],
    ];
    if (connection.env.length) entries.push(["env", valueMap(connection.env, indent)]);
    if (connection.cwd) entries.push(["cwd", expr(connection.cwd)]);
  } else {
    kind = connection.transport === "http" ? "Streamable HTTP" : "SSE";
    entries = [
      ["transport", `${str(connection.transport)} as const`],
      ["url", expr(connection.url)],
    ];
    if (connection.headers.length) entries.push(["headers", valueMap(connection.headers, indent)]);
  }
  const width = 98 - `  ${key(record.id)}: `.length;
  return `  // ${record.name}: ${kind}.\n  ${key(record.id)}: ${
    objectLiteral(entries, "  ", width)
  },`;
}

/** One entry of `TOOL_SETTINGS`: disabled tools and approvals. */
function settingsEntry(server: ServerPlan): string {
  const entries: Entry[] = [
    ["disabledTools", arrayLiteral(server.disabledTools.map(str), "    ")],
    ["approval", approvalLiteral(server.approval, "    ")],
  ];
  const width = 98 - `  ${key(server.record.id)}: `.length;
  return `  ${key(server.record.id)}: ${objectLiteral(entries, "  ", width)},`;
}

const TOOL_TYPES =
  `/** Whether a call runs (\`auto\`) or waits for a yes on the terminal (\`ask\`). */
type Approval = "auto" | "ask";

/** Per tool server: tools the model never sees, and which calls wait for a yes. */
interface ToolSettings {
  disabledTools: string[];
  /** Per tool, else \`default\`. */
  approval: { default: Approval; tools: Record<string, Approval> };
}`;

const LOAD_TOOLS =
  `/** The tools of every server that connected, named as in Lass; \`approvals\`: the ones that ask. */
async function loadTools(
  client: MultiServerMCPClient,
): Promise<{ tools: DynamicStructuredTool[]; approvals: Set<string> }> {
  const tools: DynamicStructuredTool[] = [];
  const approvals = new Set<string>();
  for (const [id, settings] of Object.entries(TOOL_SETTINGS)) {
    const viewOnly = await viewOnlyTools(client, id);
    for (const tool of await client.getTools(id)) {
      if (settings.disabledTools.includes(tool.name) || viewOnly.has(tool.name)) continue;
      const name = toolName(id, tool.name);
      if ((settings.approval.tools[tool.name] ?? settings.approval.default) === "ask") {
        approvals.add(name);
      }
      tool.name = name;
      tools.push(tool);
    }
  }
  return { tools, approvals };
}

/** The MCP client call used below (typed here: not every runtime sees the MCP SDK's types). */
interface ToolLister {
  listTools(params: { cursor?: string }): Promise<{
    tools: { name: string; _meta?: unknown }[];
    nextCursor?: string;
  }>;
}

/** The tools of a server that MCP Apps keep for their View (LangChain's tools drop \`_meta\`). */
async function viewOnlyTools(client: MultiServerMCPClient, id: string): Promise<Set<string>> {
  const names = new Set<string>();
  const server = await client.getClient(id) as unknown as ToolLister | undefined;
  if (!server) return names;
  let cursor: string | undefined;
  do {
    const page = await server.listTools(cursor === undefined ? {} : { cursor });
    for (const tool of page.tools) if (!forModel(tool._meta)) names.add(tool.name);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return names;
}`;

function mainCode(plan: WorkspacePlan): string {
  const servers = plan.servers.length > 0;
  const agentOptions = [
    "model",
    "tools",
    ...(plan.instructions ? ["systemPrompt: SYSTEM_PROMPT"] : []),
    `middleware: [\n        modelCallLimitMiddleware({ runLimit: MAX_STEPS, exitBehavior: "end" }),${
      servers ? "\n        approvalMiddleware(approvals)," : ""
    }\n      ]`,
  ].map((line) => `      ${line},`).join("\n");
  const setup = servers
    ? `const client = new MultiServerMCPClient({
    mcpServers: SERVERS,
    // A server that fails is left out with a warning, as in Lass.
    onConnectionError: ({ serverName, error }) => {
      console.error(\`warning: tool server \${serverName} is unavailable: \${message(error)}\`);
    },
  });
  try {
    const { tools, approvals } = await loadTools(client);`
    : "{\n    const tools: DynamicStructuredTool[] = [];";
  const cleanup = servers ? "  } finally {\n    await client.close();\n  }" : "  }";
  return mainFunction(
    FILENAME,
    setup,
    `    const agent = createAgent({
${agentOptions}
    });
    const stream = await agent.stream(
      { messages: [{ role: "user", content: prompt }] },
      // The call limit above ends the run; LangGraph's own limit must not come first.
      { streamMode: "messages", recursionLimit: 10 * MAX_STEPS + 10, signal: abort.signal },
    );
    for await (const [chunk] of stream) {
      if (AIMessageChunk.isInstance(chunk)) process.stdout.write(chunk.text);
      else if (ToolMessage.isInstance(chunk)) {
        console.error(\`< \${chunk.name}: \${shown(chunk.content)}\`);
      }
    }
`,
    cleanup,
  );
}

const APPROVAL_MIDDLEWARE =
  `/** Shows each tool call on stderr and asks before the ones in \`approvals\`. */
function approvalMiddleware(approvals: Set<string>) {
  return createMiddleware({
    name: "ToolApproval",
    wrapToolCall: async (request, handler) => {
      const call = request.toolCall;
      console.error(\`\\n> \${call.name} \${JSON.stringify(call.args)}\`);
      if (!approvals.has(call.name) || await ask(\`Run \${call.name}? [y/N] \`)) {
        return await handler(request);
      }
      return new ToolMessage({
        content: "The user denied this call.",
        tool_call_id: call.id ?? "",
        name: call.name,
        status: "error",
      });
    },
  });
}`;

const SHOWN_HELPER =
  `/** A tool result in one short line: its text, out of the JSON the adapters wrap it in. */
function shown(content: unknown): string {
  let text = typeof content === "string" ? content : JSON.stringify(content);
  try {
    const parsed = JSON.parse(text);
    if (typeof parsed?.text === "string") text = parsed.text;
  } catch {
    // plain text
  }
  const line = text.replace(/\\s+/g, " ");
  return line.length > 200 ? \`\${line.slice(0, 199)}…\` : line;
}

/** An error's message. */
function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}`;

/** Generates the `graph-a` file of a workspace plan. */
export function generateGraphA(plan: WorkspacePlan): ExportResult {
  const model = modelCode(plan);
  const servers = plan.servers.length > 0;
  const packages: PinnedPackage[] = [
    "langchain",
    "@langchain/core",
    "@langchain/langgraph",
    ...(servers ? ["@langchain/mcp-adapters" as const] : []),
    model.chatClass.pkg,
  ];
  const dependencies = pinned(packages);
  const notes = [...plan.notes];
  if (plan.model.profile?.providerOptions !== undefined && !plan.model.placeholder) {
    notes.push("The model profile's providerOptions are AI SDK options and are not exported.");
  }
  const langchain = [
    "AIMessageChunk",
    "createAgent",
    ...(servers ? ["createMiddleware"] : []),
    "type DynamicStructuredTool",
    "modelCallLimitMiddleware",
    "ToolMessage",
  ];
  const imports = [
    'import process from "node:process";',
    ...(servers ? ['import { createInterface } from "node:readline/promises";'] : []),
    ...(servers ? ['import { MultiServerMCPClient } from "@langchain/mcp-adapters";'] : []),
    importLine([model.chatClass.name], model.chatClass.pkg),
    importLine(langchain, "langchain"),
  ];
  const sections = [
    header({
      title: "A LangChain agent (createAgent, on LangGraph)",
      plan: { ...plan, notes },
      dependencies,
      filename: FILENAME,
    }),
    imports.join("\n"),
    model.code,
    ...(plan.instructions
      ? [
        `/** The workspace's system prompt and skills. */\nconst SYSTEM_PROMPT = ${
          templateLiteral(plan.instructions)
        };`,
      ]
      : []),
    `/** At most this many model calls per prompt: the workspace's maxSteps. */\n` +
    `const MAX_STEPS = ${plan.maxSteps};`,
    ...(servers
      ? [
        "/** The tool servers, keyed by their Lass ids (tool names are prefixed with them). */\n" +
        `const SERVERS = {\n${plan.servers.map(serverEntry).join("\n")}\n};`,
        TOOL_TYPES,
        `const TOOL_SETTINGS: Record<string, ToolSettings> = {\n${
          plan.servers.map(settingsEntry).join("\n")
        }\n};`,
        LOAD_TOOLS,
        FOR_MODEL_HELPER,
        APPROVAL_MIDDLEWARE,
        TOOL_NAME_HELPER,
        ASK_HELPER,
      ]
      : []),
    ENV_HELPER,
    ...model.helpers,
    SHOWN_HELPER,
    mainCode(plan),
  ];
  return {
    code: sections.join("\n\n") + "\n",
    filename: FILENAME,
    dependencies,
    env: plan.vars.list(),
    notes,
  };
}
