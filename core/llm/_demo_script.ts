/** The demo model's script: what it answers, which tools it calls and with which arguments. */
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultPart,
} from "@ai-sdk/provider";

/** The A2UI v0.9 basic catalog id. */
const BASIC_CATALOG_ID = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

/**
 * The JSON-Schema keywords the argument builder reads. Declared here because `@ai-sdk/provider`
 * takes `JsonSchema` from `@types/json-schema`, which is not installed, so it would be `any`.
 */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchemaDef>;
  required?: string[];
  additionalProperties?: JsonSchemaDef;
  items?: JsonSchemaDef | JsonSchemaDef[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  anyOf?: JsonSchemaDef[];
  oneOf?: JsonSchemaDef[];
  allOf?: JsonSchemaDef[];
  $ref?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

/** A schema or the boolean schema `true`/`false`. */
type JsonSchemaDef = JsonSchema | boolean;

/** One tool call the demo model decided to make; `input` is a JSON object. */
export interface DemoCall {
  toolName: string;
  input: Record<string, unknown>;
}

/** What the demo model answers to one call: its reasoning, its text and its tool calls. */
export interface DemoPlan {
  reasoning: string;
  text: string;
  calls: DemoCall[];
}

/** The parts of the call options that decide the answer. */
export type DemoInput = Pick<
  LanguageModelV4CallOptions,
  "prompt" | "tools" | "toolChoice" | "responseFormat"
>;

/** A tool named in the user's message: where its name was first seen. */
interface Mention {
  tool: LanguageModelV4FunctionTool;
  start: number;
  end: number;
}

/** Material for tool arguments, taken from the user's message; the queues are consumed in order. */
interface ArgSource {
  message: string;
  numbers: number[];
  quotes: string[];
  booleans: boolean[];
  json?: Record<string, unknown>;
  /** The text after the tool's name, else the whole message. */
  fallback: string;
}

/** A2UI v0.9 messages for a small sign-up form: a heading, an e-mail field and a button. */
export function demoUiSample(): unknown[] {
  const surfaceId = "demo-signup";
  return [
    { version: "v0.9", createSurface: { surfaceId, catalogId: BASIC_CATALOG_ID } },
    {
      version: "v0.9",
      updateComponents: {
        surfaceId,
        components: [
          { id: "root", component: "Column", children: ["heading", "email", "submit"] },
          { id: "heading", component: "Text", text: "Sign up", variant: "h2" },
          { id: "email", component: "TextField", label: "Email", value: { path: "/signup/email" } },
          { id: "submitLabel", component: "Text", text: "Create account" },
          {
            id: "submit",
            component: "Button",
            child: "submitLabel",
            variant: "primary",
            action: { event: { name: "signup", context: { email: { path: "/signup/email" } } } },
          },
        ],
      },
    },
  ];
}

/** Decides the whole answer from the prompt, the offered tools and the tool choice. */
export function planReply(input: DemoInput): DemoPlan {
  if (input.responseFormat?.type === "json") return jsonPlan(input);
  const results = trailingToolResults(input.prompt);
  if (results.length > 0) return summariseResults(results);
  const tools = functionTools(input);
  const message = latestUserText(input.prompt);
  const calls = chooseCalls(message, tools, input.toolChoice);
  if (calls.length > 0) return callPlan(calls, message, tools);
  return answerPlan(message, tools, input.prompt.some((m) => m.role === "system"));
}

// ---- reading the prompt ----

/** The text of the latest user message, its text parts joined by new lines. */
function latestUserText(prompt: LanguageModelV4Prompt): string {
  const message = prompt.findLast((m) => m.role === "user");
  if (message?.role !== "user") return "";
  return message.content.flatMap((p) => p.type === "text" ? [p.text] : []).join("\n").trim();
}

/** The tool results at the end of the prompt (after the model's last tool calls), in order. */
function trailingToolResults(prompt: LanguageModelV4Prompt): LanguageModelV4ToolResultPart[] {
  let first = prompt.length;
  while (first > 0 && prompt[first - 1].role === "tool") first--;
  return prompt.slice(first).flatMap((m) =>
    m.role === "tool" ? m.content.filter((p) => p.type === "tool-result") : []
  );
}

/** The offered function tools (provider tools are ignored). */
function functionTools(input: DemoInput): LanguageModelV4FunctionTool[] {
  return (input.tools ?? []).filter((t): t is LanguageModelV4FunctionTool => t.type === "function");
}

// ---- matching tool names ----

/** The names a user may use for a tool: full name, the part after the last `__`, and both spaced. */
function toolAliases(name: string): string[] {
  const short = name.includes("__") ? name.slice(name.lastIndexOf("__") + 2) : name;
  const spaced = (s: string) => s.replace(/[_-]+/g, " ").trim();
  return [...new Set([name, short, spaced(name), spaced(short)])].filter((a) => a.length > 0);
}

/** A case-insensitive, whole-word pattern for one alias; spaces match runs of space, `_` or `-`. */
function aliasPattern(alias: string, flags = "iu"): RegExp {
  const body = alias.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "[\\s_-]+");
  return new RegExp(`(?<![\\p{L}\\p{N}_-])${body}(?![\\p{L}\\p{N}_-])`, flags);
}

/** The offered tools named in the message, in the order they are first mentioned. */
function findMentions(message: string, tools: LanguageModelV4FunctionTool[]): Mention[] {
  const mentions: Mention[] = [];
  for (const tool of tools) {
    let best: Mention | undefined;
    for (const alias of toolAliases(tool.name)) {
      const match = aliasPattern(alias).exec(message);
      if (match && (!best || match.index < best.start)) {
        best = { tool, start: match.index, end: match.index + match[0].length };
      }
    }
    if (best) mentions.push(best);
  }
  return mentions.sort((a, b) => a.start - b.start);
}

/** Whether the message asks for a user interface. */
function wantsUi(message: string): boolean {
  return /\b(ui|user interface|forms?|render|cards?|charts?|tables?|buttons?|widgets?)\b/i.test(
    message,
  );
}

/** Whether a tool looks like the A2UI render tool. */
function isRenderTool(tool: LanguageModelV4FunctionTool): boolean {
  return tool.name === "render_ui" || tool.name.endsWith("__render_ui") ||
    /a2ui/i.test(tool.description ?? "");
}

/** The calls to make: named tools, the render tool for UI requests, as the tool choice allows. */
function chooseCalls(
  message: string,
  tools: LanguageModelV4FunctionTool[],
  choice: DemoInput["toolChoice"],
): DemoCall[] {
  if (tools.length === 0 || choice?.type === "none") return [];
  const mentions = findMentions(message, tools);
  let chosen = mentions.map((m) => m.tool);
  const render = tools.find(isRenderTool);
  if (render && wantsUi(message) && !chosen.includes(render)) chosen.push(render);
  if (choice?.type === "tool") chosen = tools.filter((t) => t.name === choice.toolName);
  if (choice?.type === "required" && chosen.length === 0) chosen = [tools[0]];
  return chosen.map((tool) => ({ toolName: tool.name, input: toolInput(tool, message, mentions) }));
}

// ---- building arguments ----

/** The arguments for one tool: the A2UI sample for a render tool, else built from the schema. */
function toolInput(
  tool: LanguageModelV4FunctionTool,
  message: string,
  mentions: Mention[],
): Record<string, unknown> {
  const source = argSource(message, tool, mentions);
  const schema: JsonSchema = isRecord(tool.inputSchema) ? tool.inputSchema : {};
  const messagesProp = resolve(schema.properties?.messages, schema);
  const isUi = isRenderTool(tool) && schemaType(messagesProp) === "array";
  if (isUi) source.json = { ...source.json, messages: demoUiSample() };
  return buildObject(schema, source, schema, true);
}

/**
 * Collects numbers, quoted strings, yes/no words, a JSON object and the text after the name from
 * the tool's part of the message: with several named tools, the first one reads up to the second
 * name and each later one from its name to the next; otherwise the whole message.
 */
function argSource(
  message: string,
  tool: LanguageModelV4FunctionTool | undefined,
  mentions: Mention[],
): ArgSource {
  const index = mentions.findIndex((m) => m.tool === tool);
  const segment = index < 0 || mentions.length < 2
    ? message
    : message.slice(index === 0 ? 0 : mentions[index].start, mentions[index + 1]?.start);
  const json = findJsonObject(segment);
  let rest = json ? segment.replace(json.text, " ") : segment;
  const quotes: string[] = [];
  const quotePattern = /"([^"]*)"|“([^”]*)”|(?<![\p{L}\p{N}])'([^']*)'(?![\p{L}\p{N}])/gu;
  for (const m of rest.matchAll(quotePattern)) quotes.push(m[1] ?? m[2] ?? m[3]);
  rest = rest.replace(quotePattern, " ");
  for (const mention of mentions) {
    for (const alias of toolAliases(mention.tool.name)) {
      rest = rest.replace(aliasPattern(alias, "giu"), " ");
    }
  }
  const numbers = [...rest.matchAll(/(?<![\p{L}\p{N}_.])-?\d+(?:\.\d+)?/gu)].map((m) =>
    Number(m[0])
  );
  const booleans = [...rest.matchAll(/\b(yes|no|true|false)\b/gi)].map((m) =>
    /^(yes|true)$/i.test(m[1])
  );
  const fallback = (tool && textAfterName(message, tool, mentions)) || message;
  return { message: segment, numbers, quotes, booleans, json: json?.value, fallback };
}

/** The first JSON object written in the message, with its source text. */
function findJsonObject(
  text: string,
): { text: string; value: Record<string, unknown> } | undefined {
  for (let start = text.indexOf("{"); start >= 0; start = text.indexOf("{", start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === "\\") i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) {
        const candidate = text.slice(start, i + 1);
        try {
          const value: unknown = JSON.parse(candidate);
          if (isRecord(value)) return { text: candidate, value };
        } catch { /* not JSON: try the next brace */ }
        break;
      }
    }
  }
  return undefined;
}

/** The text after the tool's name, up to the next named tool, without a leading "with"/"to"... */
function textAfterName(message: string, tool: LanguageModelV4FunctionTool, mentions: Mention[]) {
  const index = mentions.findIndex((m) => m.tool === tool);
  if (index < 0) return "";
  const end = mentions[index + 1]?.start ?? message.length;
  return message.slice(mentions[index].end, end)
    .replace(/^[\s:,-]*(?:(?:with|for|to|on|about|using|saying|of)\b)?[\s:,-]*/i, "")
    .replace(/[\s,.!?;:]+$/, "")
    .replace(/\s+(?:and|then)$/i, "")
    .trim();
}

/** Follows a local `$ref` and picks the first non-null branch of `anyOf`/`oneOf`. */
function resolve(def: JsonSchemaDef | undefined, root: JsonSchema): JsonSchema {
  let schema: JsonSchema = typeof def === "object" ? def : {};
  for (let hops = 0; hops < 10; hops++) {
    if (schema.$ref?.startsWith("#")) {
      let target: unknown = root;
      for (const key of schema.$ref.slice(2).split("/").filter((k) => k)) {
        target = isRecord(target) ? target[key.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
      }
      schema = isRecord(target) ? (target as JsonSchema) : {};
      continue;
    }
    const branches = (schema.anyOf ?? schema.oneOf ?? schema.allOf)?.map((b) => resolve(b, root));
    const branch = branches?.find((b) => schemaType(b) !== "null") ?? branches?.[0];
    if (!branch) return schema;
    schema = { ...branch, default: schema.default ?? branch.default };
  }
  return schema;
}

/** The schema's main type: the first non-null `type`, else inferred from its keywords. */
function schemaType(schema: JsonSchema): string {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const type = types.find((t) => t !== "null") ?? types[0];
  if (type) return type;
  if (schema.properties) return "object";
  if (schema.items) return "array";
  if (schema.enum) return typeof schema.enum[0];
  return "string";
}

/** Builds an object for a schema: JSON fields first, then required and then optional properties. */
function buildObject(
  schema: JsonSchema,
  source: ArgSource,
  root: JsonSchema,
  top = false,
): Record<string, unknown> {
  const properties = schema.properties ?? {};
  const names = Object.keys(properties);
  const json = top ? source.json : undefined;
  if (names.length === 0) return schema.additionalProperties === false ? {} : json ?? {};
  const required = new Set(schema.required ?? []);
  const values = new Map<string, unknown>();
  const order = [...names.filter((n) => required.has(n)), ...names.filter((n) => !required.has(n))];
  for (const name of order) {
    const value = json && name in json
      ? json[name]
      : fillValue(resolve(properties[name], root), source, root, required.has(name));
    if (value !== undefined) values.set(name, value);
  }
  return Object.fromEntries(names.filter((n) => values.has(n)).map((n) => [n, values.get(n)]));
}

/** Fills one value by type; an optional value is left out unless the message provides it. */
function fillValue(
  schema: JsonSchema,
  source: ArgSource,
  root: JsonSchema,
  required: boolean,
): unknown {
  if (schema.const !== undefined) return schema.const;
  const fallback = schema.default;
  if (schema.enum) {
    return pickEnum(schema.enum, source.message) ?? fallback ??
      (required ? schema.enum[0] : undefined);
  }
  switch (schemaType(schema)) {
    case "number":
    case "integer": {
      const n = source.numbers.shift();
      if (n === undefined) return fallback ?? (required ? fitNumber(schema, 0) : undefined);
      return fitNumber(schema, n);
    }
    case "boolean":
      return source.booleans.shift() ?? fallback ?? (required ? false : undefined);
    case "array":
      return fillArray(schema, source, root, required);
    case "object":
      return fallback ?? (required ? buildObject(schema, source, root) : undefined);
    case "null":
      return null;
    default: {
      const text = source.quotes.shift() ?? fallback ?? (required ? source.fallback : undefined);
      return typeof text === "string" && schema.maxLength ? text.slice(0, schema.maxLength) : text;
    }
  }
}

/** The enum value mentioned first in the message (whole word, any case). */
function pickEnum(values: readonly unknown[], message: string): unknown {
  let best: { value: unknown; index: number } | undefined;
  for (const value of values) {
    if (typeof value !== "string" && typeof value !== "number") continue;
    const match = aliasPattern(String(value)).exec(message);
    if (match && (!best || match.index < best.index)) best = { value, index: match.index };
  }
  return best?.value;
}

/** Clamps a number to the schema's bounds and rounds it for integers. */
function fitNumber(schema: JsonSchema, n: number): number {
  let value = schemaType(schema) === "integer" ? Math.round(n) : n;
  if (typeof schema.minimum === "number") value = Math.max(value, schema.minimum);
  if (typeof schema.maximum === "number") value = Math.min(value, schema.maximum);
  if (typeof schema.exclusiveMinimum === "number" && value <= schema.exclusiveMinimum) {
    value = schema.exclusiveMinimum + 1;
  }
  if (typeof schema.exclusiveMaximum === "number" && value >= schema.exclusiveMaximum) {
    value = schema.exclusiveMaximum - 1;
  }
  return value;
}

/** Fills an array: all remaining numbers, quoted strings or enum mentions, by item type. */
function fillArray(schema: JsonSchema, source: ArgSource, root: JsonSchema, required: boolean) {
  const itemDef = Array.isArray(schema.items) ? schema.items[0] : schema.items;
  const item = resolve(itemDef, root);
  const type = schemaType(item);
  let values: unknown[] = [];
  if (item.enum) {
    values = item.enum.filter((v) => typeof v === "string" && aliasPattern(v).test(source.message));
  } else if (type === "number" || type === "integer") {
    values = source.numbers.splice(0).map((n) => fitNumber(item, n));
  } else if (type === "string") values = source.quotes.splice(0);
  else if (type === "boolean") values = source.booleans.splice(0);
  if (values.length === 0) {
    if (schema.default !== undefined) return schema.default;
    if (!required) return undefined;
    if ((schema.minItems ?? 0) > 0) values = [fillValue(item, source, root, true)];
  }
  return schema.maxItems === undefined ? values : values.slice(0, schema.maxItems);
}

// ---- the answer script ----

/** The plan for a JSON response format: an object built from its schema, like tool arguments. */
function jsonPlan(input: DemoInput): DemoPlan {
  const format = input.responseFormat;
  const raw: unknown = format?.type === "json" ? format.schema : undefined;
  const schema: JsonSchema = isRecord(raw) ? raw : {};
  const message = latestUserText(input.prompt);
  const source = argSource(message, undefined, []);
  const value = schemaType(schema) === "object"
    ? buildObject(schema, source, schema, true)
    : fillValue(resolve(schema, schema), source, schema, true);
  return {
    reasoning: "A JSON answer is required, so I will fill the schema from the message.",
    text: JSON.stringify(value),
    calls: [],
  };
}

/** The plan for a turn that calls tools. */
function callPlan(calls: DemoCall[], message: string, tools: LanguageModelV4FunctionTool[]) {
  const names = listNames(calls.map((c) => c.toolName));
  const ui = calls.some((c) => {
    const tool = tools.find((t) => t.name === c.toolName);
    return tool !== undefined && isRenderTool(tool) && Array.isArray(c.input.messages);
  });
  const reason = ui && !findMentions(message, tools).length
    ? `The user asked for UI, so I will call ${names} with a small sign-up form.`
    : `The user named ${names}, so I will call ${
      calls.length > 1 ? "them" : "it"
    } with arguments taken from the message.`;
  const lines = calls.map((c) =>
    Array.isArray(c.input.messages)
      ? `Calling \`${c.toolName}\` to show a small sign-up form.`
      : `Calling \`${c.toolName}\` with ${shortJson(c.input)}.`
  );
  return { reasoning: reason, text: lines.join("\n"), calls };
}

/** The plan for the turn after tool results: one sentence per result, no new calls. */
function summariseResults(results: LanguageModelV4ToolResultPart[]): DemoPlan {
  const lines = results.map(describeResult);
  const text = lines.length === 1
    ? lines[0]
    : `Here are the results:\n${lines.map((l) => `- ${l}`).join("\n")}`;
  const reasoning =
    "The tool results are back, so I will summarise them instead of calling more tools.";
  return { reasoning, text, calls: [] };
}

/** One sentence about one tool result, saying when it was an error. */
function describeResult(part: LanguageModelV4ToolResultPart): string {
  const name = `\`${part.toolName}\``;
  const output = part.output;
  switch (output.type) {
    case "json":
      return `${name} returned ${shortJson(output.value)}.`;
    case "text":
      return `${name} returned ${clip(output.value)}.`;
    case "error-text":
      return `${name} failed with an error: ${clip(output.value)}.`;
    case "error-json":
      return `${name} failed with an error: ${shortJson(output.value)}.`;
    case "execution-denied":
      return `${name} was not run: the call was denied${
        output.reason ? ` (${clip(output.reason)})` : ""
      }.`;
    case "content": {
      const texts = output.value.map((v) => v.type === "text" ? v.text : `[${v.type}]`);
      return `${name} returned ${clip(texts.join(" "))}.`;
    }
  }
}

/** The plan for a turn without tool calls: tool list, help, greeting, UI hint or echo. */
function answerPlan(
  message: string,
  tools: LanguageModelV4FunctionTool[],
  hasInstructions: boolean,
): DemoPlan {
  const plan = (reasoning: string, text: string): DemoPlan => ({ reasoning, text, calls: [] });
  if (
    /what (tools|can you do)|which tools|list (your |the )?tools|tools? (do you|are)/i.test(message)
  ) {
    return plan(
      "The user asked what I can do, so I will list the tools offered in this chat.",
      toolListText(tools),
    );
  }
  if (/\bhelp\b/i.test(message)) {
    return plan(
      "The user asked for help, so I will explain how to use this demo model.",
      helpText(hasInstructions),
    );
  }
  if (/^\s*(hi|hello|hey|howdy|greetings|good (morning|afternoon|evening))\b/i.test(message)) {
    return plan(
      "The user greeted me, so I will say hello and explain what I can do.",
      "Hello! I am the Lass demo model, a scripted model that needs no API key. " +
        'Ask "what tools do you have", name a tool to have me call it, or ask for a form to see UI.',
    );
  }
  if (wantsUi(message)) {
    return plan(
      "The user asked for UI, but no render tool is offered, so I will explain that.",
      "You asked for UI, but no render tool is offered here. Enable the `render_ui` tool " +
        "(A2UI) and ask again, and I will show a small sign-up form.",
    );
  }
  return plan(
    "No tool was named, so I will reply with a short scripted answer.",
    echoText(message, tools, hasInstructions),
  );
}

/** The list of offered tools with the first sentence of their descriptions. */
function toolListText(tools: LanguageModelV4FunctionTool[]): string {
  if (tools.length === 0) {
    return "No tools are offered in this chat, so I can only talk. " +
      "Enable a tool and name it in your message to have me call it.";
  }
  const lines = tools.map((t) => `- \`${t.name}\`: ${firstSentence(t.description)}`);
  return `These tools are offered in this chat:\n${
    lines.join("\n")
  }\nName one in your message and I will call it.`;
}

/** The reply to anything else: a summary of the question and a hint to name a tool. */
function echoText(
  message: string,
  tools: LanguageModelV4FunctionTool[],
  hasInstructions: boolean,
): string {
  const intro = message ? `You asked: "${summarise(message)}". ` : "I did not get a question. ";
  const who = hasInstructions ? "I follow this workspace's instructions, but I am" : "I am";
  const names = tools.slice(0, 5).map((t) => `\`${t.name}\``);
  if (tools.length > 5) names.push(`${tools.length - 5} more`);
  const tip = tools.length > 0
    ? `Name one of the offered tools (${
      names.join(", ")
    }) and I will call it with arguments from your message, or say "help".`
    : 'No tools are offered right now; say "help" to see what I can do.';
  return `${intro}${who} a scripted demo model, so I cannot really answer that. ${tip}`;
}

/** The help answer: how to call a tool, how to get UI, and what this model is. */
function helpText(hasInstructions: boolean): string {
  return [
    "I am the Lass demo model: a scripted stand-in that runs in-process, with no API key and no network.",
    "To make me call a tool, name it in your message (for example `add 2 and 3`): I take numbers, " +
    "quoted text, yes/no words or a JSON object from your message as its arguments.",
    "To get UI, ask for a form, card or table while a render tool (`render_ui`) is offered.",
    'Ask "what tools do you have" to see the offered tools.' +
    (hasInstructions ? " I follow this workspace's instructions." : ""),
  ].join("\n");
}

// ---- small text helpers ----

/** `a`, `a` and `b`, `a`, `b` and `c`: tool names in backticks. */
function listNames(names: string[]): string {
  const quoted = names.map((n) => `\`${n}\``);
  return quoted.length <= 1
    ? quoted.join("")
    : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
}

/** The first sentence of a description, clipped. */
function firstSentence(description: string | undefined): string {
  const sentence = (description ?? "").trim().split(/(?<=[.!?])\s/)[0];
  if (!sentence) return "(no description)";
  return sentence.length <= 120 ? sentence.replace(/\s+/g, " ") : clip(sentence, 120);
}

/** The question, whitespace collapsed and clipped at a word boundary. */
function summarise(message: string): string {
  const flat = message.replace(/\s+/g, " ").trim();
  if (flat.length <= 80) return flat;
  return `${flat.slice(0, 80).replace(/\s+\S*$/, "")}…`;
}

/** Short JSON of a value, clipped. */
function shortJson(value: unknown): string {
  return clip(JSON.stringify(value) ?? "null", 160);
}

/** Collapses whitespace, drops a trailing period and clips to `max` characters. */
function clip(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim().replace(/\.$/, "");
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Whether a value is a plain JSON object. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
