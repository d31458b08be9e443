/** The `sdk-a` export: one TypeScript file that runs the workspace with the AI SDK and `@ai-sdk/mcp`. */
import { usesAzureDeployments } from "../llm/connection.ts";
import type { ExportResult } from "../../wire/export.ts";
import type { ServerPlan, WorkspacePlan } from "./_plan.ts";
import { PLACEHOLDER_BASE_URL, PLACEHOLDER_ENV } from "./_plan.ts";
import {
  approvalLiteral,
  arrayLiteral,
  ASK_HELPER,
  ENV_HELPER,
  expr,
  FOR_MODEL_HELPER,
  header,
  importLine,
  jsonLiteral,
  mainFunction,
  objectLiteral,
  OLLAMA_HELPER,
  str,
  templateLiteral,
  TOOL_NAME_HELPER,
  valueMap,
} from "./_ts.ts";
import { pinned, type PinnedPackage } from "./versions.ts";

const FILENAME = "agent.ts";

/** The model part of the file: imports, the `model` constant, call settings and helpers. */
interface ModelCode {
  imports: string[];
  packages: PinnedPackage[];
  code: string;
  helpers: string[];
}

/** The `apiKey` option: the profile's value, else the provider's variables in order. */
function apiKeyEntry(plan: WorkspacePlan): [string, string][] {
  const { apiKey, apiKeyEnv } = plan.model;
  if (apiKey) return [["apiKey", expr(apiKey)]];
  if (apiKeyEnv.length === 0) return [];
  return [["apiKey", apiKeyEnv.map((name) => `env(${str(name)})`).join(" || ")]];
}

function commonEntries(plan: WorkspacePlan): [string, string][] {
  const { baseURL, headers } = plan.model;
  return [
    ...apiKeyEntry(plan),
    ...(baseURL ? [["baseURL", expr(baseURL)] as [string, string]] : []),
    ...(headers.length ? [["headers", valueMap(headers, "  ")] as [string, string]] : []),
  ];
}

function modelCode(plan: WorkspacePlan): ModelCode {
  const { model } = plan;
  const id = str(model.model);
  const label = model.profile
    ? `// Model profile "${model.profile.name}" (${model.profile.id}).`
    : "";
  const make = (pkg: PinnedPackage, factory: string, options: [string, string][], call: string) => {
    const width = 100 - `const model = ${factory}()${call};`.length;
    return {
      imports: [importLine([factory], pkg)],
      packages: [pkg],
      code: `${label}\nconst model = ${factory}(${objectLiteral(options, "", width)})${call};`
        .trim(),
      helpers: [] as string[],
    };
  };
  if (model.placeholder) {
    const code = make("@ai-sdk/openai-compatible", "createOpenAICompatible", [
      ["name", str("compatible")],
      ["baseURL", `env(${str(PLACEHOLDER_ENV.baseURL)}) || ${str(PLACEHOLDER_BASE_URL)}`],
      ["apiKey", `env(${str(PLACEHOLDER_ENV.apiKey)}) || undefined`],
      ["includeUsage", "true"],
    ], `.chatModel(env(${str(PLACEHOLDER_ENV.model)}) || ${id})`);
    code.code = code.code.replace(
      "const model",
      "// Lass's demo model answers only inside Lass: this calls an OpenAI-compatible endpoint " +
        `instead\n// (Ollama, LM Studio, vLLM...). Set ${PLACEHOLDER_ENV.baseURL} and ` +
        `${PLACEHOLDER_ENV.model}.\nconst model`,
    );
    return code;
  }
  const profile = model.profile!;
  switch (model.provider) {
    case "hosted-a":
      return make(
        "@ai-sdk/openai",
        "createOpenAI",
        commonEntries(plan),
        `.${profile.useChatApi ? "chat" : "responses"}(${id})`,
      );
    case "hosted-b":
      return make("@ai-sdk/anthropic", "createAnthropic", commonEntries(plan), `(${id})`);
    case "hosted-c":
      return make("@ai-sdk/google", "createGoogle", commonEntries(plan), `(${id})`);
    case "cloud-d": {
      const classic = usesAzureDeployments(profile);
      const entries = commonEntries(plan);
      if (model.resourceName && !model.baseURL) {
        entries.unshift(["resourceName", expr(model.resourceName)]);
      }
      if (profile.apiVersion) entries.push(["apiVersion", str(profile.apiVersion)]);
      entries.push(["useDeploymentBasedUrls", String(classic)]);
      const api = classic || profile.useChatApi ? "chat" : "responses";
      return make("@ai-sdk/azure", "createAzure", entries, `.${api}(${id})`);
    }
    case "local-e": {
      const entries = commonEntries(plan).filter(([name]) => name !== "apiKey");
      if (!model.baseURL) entries.unshift(["baseURL", "`${ollamaOrigin()}/api`"]);
      const code = make("ollama-ai-provider-v2", "createOllama", entries, `(${id})`);
      if (!model.baseURL) code.helpers.push(OLLAMA_HELPER);
      return code;
    }
    case "compatible-api":
      return make("@ai-sdk/openai-compatible", "createOpenAICompatible", [
        ["name", str(profile.id)],
        ...commonEntries(plan),
        ["includeUsage", "true"],
      ], `.chatModel(${id})`);
  }
}

/** The profile's call settings as Lass passes them (Ollama reads its own `options`). */
function settingsCode(plan: WorkspacePlan): string | undefined {
  const profile = plan.model.placeholder ? undefined : plan.model.profile;
  if (!profile) return undefined;
  const settings: Record<string, unknown> = {};
  const providerOptions = { ...(profile.providerOptions ?? {}) } as Record<string, unknown>;
  if (profile.provider === "local-e") {
    const given = (providerOptions.ollama ?? {}) as Record<string, unknown>;
    const options = { ...(given.options as Record<string, unknown> | undefined) };
    if (profile.temperature !== undefined) options.temperature ??= profile.temperature;
    if (profile.maxOutputTokens !== undefined) options.num_predict ??= profile.maxOutputTokens;
    if (Object.keys(options).length > 0) providerOptions.ollama = { ...given, options };
  } else {
    if (profile.temperature !== undefined) settings.temperature = profile.temperature;
    if (profile.maxOutputTokens !== undefined) settings.maxOutputTokens = profile.maxOutputTokens;
  }
  if (Object.keys(providerOptions).length > 0) settings.providerOptions = providerOptions;
  if (Object.keys(settings).length === 0) return undefined;
  return `/** The model profile's call settings. */\nconst SETTINGS = ${jsonLiteral(settings)};`;
}

function connectCode(server: ServerPlan): string {
  const { connection, record } = server;
  const indent = "          ";
  if (connection.transport === "stdio") {
    const options: [string, string][] = [
      ["command", expr(connection.command)],
      ["args", arrayLiteral(connection.args.map(expr), indent)],
    ];
    if (connection.env.length) options.push(["env", valueMap(connection.env, indent)]);
    if (connection.cwd) options.push(["cwd", expr(connection.cwd)]);
    return `createMCPClient({\n        transport: new StdioMCPTransport(${
      objectLiteral(options, "        ")
    }),\n        initializationOptions: { timeout: ${record.timeoutMs} },\n      })`;
  }
  const transport: [string, string][] = [
    ["type", str(connection.transport)],
    ["url", expr(connection.url)],
  ];
  if (connection.headers.length) transport.push(["headers", valueMap(connection.headers, indent)]);
  return `createMCPClient({\n        transport: ${
    objectLiteral(transport, "        ")
  },\n        initializationOptions: { timeout: ${record.timeoutMs} },\n      })`;
}

function serverEntry(server: ServerPlan): string {
  const { record, connection } = server;
  const kind = connection.transport === "stdio"
    ? connection.demo ? "Lass's built-in demo tool server, served by Lass's CLI" : "stdio"
    : connection.transport === "http"
    ? "Streamable HTTP"
    : "SSE";
  return [
    "  {",
    `    // ${record.name}: ${kind}.`,
    `    id: ${str(record.id)},`,
    `    connect: () =>\n      ${connectCode(server)},`,
    `    disabledTools: ${arrayLiteral(server.disabledTools.map(str), "    ")},`,
    `    approval: ${approvalLiteral(server.approval, "    ")},`,
    "  },",
  ].join("\n");
}

const SERVER_TYPES =
  `/** Whether a call runs (\`auto\`) or waits for a yes on the terminal (\`ask\`). */
type Approval = "auto" | "ask";

/**
 * A tool server: how to connect, which tools the model never sees (besides the ones MCP Apps
 * keep for their View), which calls wait for a yes.
 */
interface ToolServer {
  id: string;
  connect: () => Promise<MCPClient>;
  disabledTools: string[];
  /** Per tool, else \`default\`. */
  approval: { default: Approval; tools: Record<string, Approval> };
}`;

const CONNECT_TOOLS =
  `/** Connects the tool servers; one that fails is left out with a warning, as in Lass. */
async function connectTools(
  clients: MCPClient[],
): Promise<{ tools: ToolSet; approvals: Set<string> }> {
  const tools: ToolSet = {};
  const approvals = new Set<string>();
  const connected = await Promise.allSettled(SERVERS.map((server) => server.connect()));
  for (const [index, server] of SERVERS.entries()) {
    const outcome = connected[index];
    if (outcome.status === "rejected") {
      console.error(\`warning: tool server \${server.id} is unavailable: \${message(outcome.reason)}\`);
      continue;
    }
    const client = outcome.value;
    clients.push(client);
    for (const [name, tool] of Object.entries(await client.tools())) {
      if (server.disabledTools.includes(name) || !forModel(tool._meta)) continue;
      const modelName = toolName(server.id, name);
      tools[modelName] = tool;
      const mode = server.approval.tools[name] ?? server.approval.default;
      if (mode === "ask") approvals.add(modelName);
    }
  }
  return { tools, approvals };
}`;

const SHOWN_HELPER = `/** A tool result in one short line: its text content, else its JSON. */
function shown(output: unknown): string {
  const content = (output as { content?: { type: string; text?: string }[] } | undefined)?.content;
  const text = Array.isArray(content)
    ? content.map((part) => part.text ?? \`[\${part.type}]\`).join(" ")
    : JSON.stringify(output);
  return text.length > 200 ? \`\${text.slice(0, 199)}…\` : text;
}

/** An error's message. */
function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}`;

function mainCode(plan: WorkspacePlan, settings: boolean): string {
  const servers = plan.servers.length > 0;
  const call = [
    ...(settings ? ["...SETTINGS"] : []),
    "model",
    ...(plan.instructions ? ["instructions: INSTRUCTIONS"] : []),
    "messages",
    "tools",
    ...(servers
      ? [
        "toolApproval: ({ toolCall }) =>\n          approvals.has(toolCall.toolName) ? " +
        '"user-approval" : "not-applicable"',
      ]
      : []),
    "stopWhen: isStepCount(MAX_STEPS - steps)",
    "abortSignal: abort.signal",
  ].map((line) => `        ${line},`).join("\n");
  const approvalCase = servers
    ? `
          case "tool-approval-request": {
            const { toolName, input } = part.toolCall;
            const approved = await ask(\`Run \${toolName} \${JSON.stringify(input)}? [y/N] \`);
            answers.push({
              type: "tool-approval-response",
              approvalId: part.approvalId,
              approved,
              ...(!approved && { reason: "The user denied this call." }),
            });
            break;
          }`
    : "";
  const setup = servers
    ? "const clients: MCPClient[] = [];\n  try {\n    const { tools, approvals } = await connectTools(clients);"
    : "{\n    const tools: ToolSet = {};";
  const cleanup = servers
    ? `  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
  }`
    : "  }";
  return mainFunction(
    FILENAME,
    setup,
    `    const messages: ModelMessage[] = [{ role: "user", content: prompt }];
    let steps = 0;
    while (steps < MAX_STEPS) {
      const result = streamText({
${call}
      });
      const answers: ToolApprovalResponse[] = [];
      for await (const part of result.fullStream) {
        switch (part.type) {
          case "text-delta":
            process.stdout.write(part.text);
            break;
          case "tool-call":
            console.error(\`\\n> \${part.toolName} \${JSON.stringify(part.input)}\`);
            break;
          case "tool-result":
            console.error(\`< \${part.toolName}: \${shown(part.output)}\`);
            break;
          case "tool-error":
            console.error(\`< \${part.toolName} failed: \${message(part.error)}\`);
            break;${approvalCase}
          case "error":
            throw part.error;
        }
      }
      messages.push(...(await result.response).messages);
      steps += (await result.steps).length;
      if (answers.length === 0) break;
      messages.push({ role: "tool", content: answers });
    }
`,
    cleanup,
  );
}

/** Generates the `sdk-a` file of a workspace plan. */
export function generateSdkA(plan: WorkspacePlan): ExportResult {
  const model = modelCode(plan);
  const settings = settingsCode(plan);
  const servers = plan.servers.length > 0;
  const packages: PinnedPackage[] = [
    "ai",
    ...(servers ? ["@ai-sdk/mcp" as const] : []),
    ...model.packages,
    "zod",
  ];
  const dependencies = pinned(packages);
  const stdio = plan.servers.some((server) => server.connection.transport === "stdio");
  const aiTypes = ["isStepCount", "type ModelMessage", "streamText", "type ToolApprovalResponse"];
  const imports = [
    'import process from "node:process";',
    ...(servers ? ['import { createInterface } from "node:readline/promises";'] : []),
    ...(servers ? ['import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";'] : []),
    ...(stdio ? ['import { StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";'] : []),
    ...model.imports,
    importLine([...aiTypes, "type ToolSet"], "ai"),
  ];
  const sections = [
    header({ title: "An AI SDK agent", plan, dependencies, filename: FILENAME }),
    imports.join("\n"),
    model.code,
    ...(settings ? [settings] : []),
    ...(plan.instructions
      ? [
        `/** The workspace's system prompt and skills. */\nconst INSTRUCTIONS = ${
          templateLiteral(plan.instructions)
        };`,
      ]
      : []),
    `/** At most this many steps (model calls) per prompt: the workspace's maxSteps. */\n` +
    `const MAX_STEPS = ${plan.maxSteps};`,
    ...(servers
      ? [
        SERVER_TYPES,
        `const SERVERS: ToolServer[] = [\n${plan.servers.map(serverEntry).join("\n")}\n];`,
        CONNECT_TOOLS,
        FOR_MODEL_HELPER,
        TOOL_NAME_HELPER,
        ASK_HELPER,
      ]
      : []),
    ENV_HELPER,
    ...model.helpers,
    SHOWN_HELPER,
    mainCode(plan, settings !== undefined),
  ];
  return {
    code: sections.join("\n\n") + "\n",
    filename: FILENAME,
    dependencies,
    env: plan.vars.list(),
    notes: plan.notes,
  };
}
