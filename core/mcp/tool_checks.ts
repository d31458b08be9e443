/**
 * What in a tool server's listing breaks model providers or calls: tool names they refuse, input
 * schemas that are not JSON Schema or that they reject, output schemas the MCP client cannot
 * compile, duplicates, missing descriptions. Pure checks of a {@link ToolServerState}; `lass check`
 * runs them on every server of a workspace.
 */
import { Ajv } from "@modelcontextprotocol/client/validators/ajv";
import type { JsonSchemaType } from "@modelcontextprotocol/client";
import type { ToolServerState } from "../../wire/tool_servers.ts";
import { sharedValidator } from "./session/validator_cache.ts";
import { modelToolName } from "./tool_names.ts";

/** One finding: an `error` breaks a model provider or the check itself; a `warning` does not. */
export interface CheckProblem {
  severity: "error" | "warning";
  /** What it is about, e.g. `tool add`, `prompt greet`, `connection`. */
  subject: string;
  message: string;
}

/** The names every provider kind accepts for a function tool (their common subset). */
const PROVIDER_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Keywords OpenAI and Anthropic refuse at the top of a tool's input schema. */
const TOP_LEVEL_REFUSED = ["anyOf", "oneOf", "allOf", "not", "enum"] as const;
/** Keywords whose values are subschemas, and those whose values are maps or lists of subschemas. */
const SUBSCHEMA = ["items", "additionalProperties", "not", "contains", "propertyNames"] as const;
const SUBSCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions"] as const;
const SUBSCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"] as const;

let metaValidator: InstanceType<typeof Ajv> | undefined;

/** The draft-07 meta-schema validator (draft-07 and 2020-12 agree on the keywords checked). */
function meta(): InstanceType<typeof Ajv> {
  metaValidator ??= new Ajv({ strict: false, allErrors: true });
  return metaValidator;
}

/** The meta-schema's complaints, one per place (the first: `anyOf` alternatives repeat it). */
function metaErrors(): string {
  const byPlace = new Map<string, string>();
  for (const { instancePath, message } of meta().errors ?? []) {
    const place = instancePath.slice(1).replaceAll("/", ".") || "the top level";
    if (!byPlace.has(place)) byPlace.set(place, `${place} ${message}`);
  }
  return [...byPlace.values()].join("; ");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Problems with a tool's own name and the name the model sees (`<serverId>__<tool>`): names
 * outside 1-64 letters, digits, `_` and `-` are refused by providers (error); a model name that
 * Lass had to shorten is a warning, as the model sees a hashed name.
 */
export function checkToolName(serverId: string, name: string): CheckProblem[] {
  const subject = `tool ${name}`;
  const shown = modelToolName(serverId, name);
  if (!PROVIDER_NAME.test(name)) {
    const why = name.length > 64
      ? `is ${name.length} characters long`
      : name.length === 0
      ? "is empty"
      : "has characters other than letters, digits, _ and -";
    return [{
      severity: "error",
      subject,
      message: `the name ${why}; model providers accept 1-64 letters, digits, _ and - ` +
        `(Lass shows it to the model as ${shown})`,
    }];
  }
  if (shown !== `${serverId}__${name}`) {
    return [{
      severity: "warning",
      subject,
      message: `${serverId}__${name} is longer than 64 characters; the model sees ${shown}`,
    }];
  }
  return [];
}

/** Every subschema of a schema with its dotted path (the schema itself first, at `path`). */
function* subschemas(
  schema: unknown,
  path: string,
): Generator<{ schema: Record<string, unknown>; path: string }> {
  if (!isObject(schema)) return;
  yield { schema, path };
  const at = (key: string) => (path === "" ? key : `${path}.${key}`);
  for (const key of SUBSCHEMA) yield* subschemas(schema[key], at(key));
  for (const key of SUBSCHEMA_MAPS) {
    const map = schema[key];
    if (!isObject(map)) continue;
    for (const [name, value] of Object.entries(map)) yield* subschemas(value, at(`${key}.${name}`));
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const [index, value] of list.entries()) yield* subschemas(value, at(`${key}.${index}`));
  }
}

/** Whether a schema says it is an array (`type: "array"` or a list of types with it). */
function isArraySchema(schema: Record<string, unknown>): boolean {
  return schema.type === "array" || (Array.isArray(schema.type) && schema.type.includes("array"));
}

/**
 * Problems with a tool's input schema: not valid JSON Schema (checked against the meta-schema),
 * a top level that is not `type: "object"` or holds `anyOf`/`oneOf`/`allOf`/`not`/`enum`,
 * arrays without `items` (errors); `required` names without a property (warning).
 */
export function checkInputSchema(schema: unknown): Omit<CheckProblem, "subject">[] {
  if (!isObject(schema)) {
    return [{ severity: "error", message: "the input schema is not a JSON object" }];
  }
  const problems: Omit<CheckProblem, "subject">[] = [];
  const error = (message: string) => problems.push({ severity: "error", message });
  // The meta-schema is draft-07's; `$schema` would only make Ajv look up another dialect.
  const { $schema: _dialect, ...body } = schema;
  if (!meta().validateSchema(body)) {
    error(`the input schema is not valid JSON Schema: ${metaErrors()}`);
  }
  if (schema.type === undefined) {
    error('the input schema has no type; model providers need "type": "object"');
  } else if (schema.type !== "object") {
    error(
      `the input schema's type is ${JSON.stringify(schema.type)}; model providers accept only ` +
        '"object" at the top level',
    );
  }
  for (const keyword of TOP_LEVEL_REFUSED) {
    if (schema[keyword] !== undefined) {
      error(`the input schema has ${keyword} at the top level, which OpenAI and Anthropic refuse`);
    }
  }
  if (schema.properties !== undefined && !isObject(schema.properties)) {
    error("the input schema's properties is not an object");
  }
  for (const { schema: sub, path } of subschemas(schema, "")) {
    if (isArraySchema(sub) && sub.items === undefined && sub.prefixItems === undefined) {
      error(`the array at ${path || "the top level"} has no items schema, which OpenAI refuses`);
    }
  }
  if (Array.isArray(schema.required) && isObject(schema.properties)) {
    const missing = schema.required.filter((name) =>
      typeof name === "string" && !(name in (schema.properties as Record<string, unknown>))
    );
    if (missing.length > 0) {
      problems.push({
        severity: "warning",
        message: `required names properties the schema does not have: ${missing.join(", ")}`,
      });
    }
  }
  return problems;
}

/**
 * Problems with a tool's output schema: one the MCP client cannot compile (a bad `pattern`, an
 * unknown `$schema`, ...) fails every call of the tool before it is sent (SEP-2106).
 */
export function checkOutputSchema(
  schema: Record<string, unknown>,
): Omit<CheckProblem, "subject">[] {
  try {
    sharedValidator.getValidator(schema as JsonSchemaType);
    return [];
  } catch (error) {
    return [{
      severity: "error",
      message: `the output schema cannot be compiled, so every call of the tool fails: ${
        (error as Error).message
      }`,
    }];
  }
}

/** Names that occur more than once, each once. */
function duplicates(names: string[]): string[] {
  const seen = new Set<string>();
  return [...new Set(names.filter((name) => seen.has(name) || !seen.add(name)))];
}

/**
 * Every problem of a server as Lass last saw it: a server that is not connected (error), then
 * its tools (the ones the model sees: names, schemas, empty descriptions as warnings) and
 * duplicate tool or prompt names.
 */
export function checkServer(state: ToolServerState): CheckProblem[] {
  if (state.status === "needs-auth") {
    return [{
      severity: "error",
      subject: "connection",
      message: `the server needs sign-in: open Lass's web UI (lass serve) and sign in` +
        (state.error ? ` (${state.error})` : ""),
    }];
  }
  if (state.status !== "connected") {
    return [{
      severity: "error",
      subject: "connection",
      message: state.error ?? `the server is ${state.status}`,
    }];
  }
  const problems: CheckProblem[] = [];
  for (const name of duplicates(state.tools.map((tool) => tool.name))) {
    problems.push({
      severity: "error",
      subject: `tool ${name}`,
      message: "more than one tool has this name; providers refuse duplicate tool names",
    });
  }
  for (const name of duplicates(state.prompts.map((prompt) => prompt.name))) {
    problems.push({
      severity: "error",
      subject: `prompt ${name}`,
      message: "more than one prompt has this name",
    });
  }
  for (const tool of state.tools) {
    if (!tool.modelVisible) continue;
    const subject = `tool ${tool.name}`;
    problems.push(...checkToolName(state.id, tool.name));
    problems.push(
      ...checkInputSchema(tool.inputSchema).map((problem) => ({ ...problem, subject })),
    );
    if (tool.outputSchema) {
      problems.push(
        ...checkOutputSchema(tool.outputSchema).map((problem) => ({ ...problem, subject })),
      );
    }
    if (tool.description.trim() === "") {
      problems.push({
        severity: "warning",
        subject,
        message: "the description is empty; the model has only the name to go by",
      });
    }
  }
  return problems;
}
