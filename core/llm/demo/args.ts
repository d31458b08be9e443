/** The demo model's argument builder: tool arguments and JSON answers from the user's message. */
import type { LanguageModelV4FunctionTool } from "@ai-sdk/provider";
import { aliasPattern, findAlias, type Mention, toolAliases } from "./mentions.ts";

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

/** The arguments for one tool, built from its input schema and its part of the message. */
export function toolInput(
  tool: LanguageModelV4FunctionTool,
  options: {
    /** The latest user message. */
    message: string;
    /** The tools named in the message, from {@link findMentions}. */
    mentions: Mention[];
    /** Fields taken as given, over any JSON object in the message (e.g. the A2UI sample). */
    preset?: Record<string, unknown>;
    /** The whole input, as the user wrote it: only the properties the schema declares are kept. */
    given?: Record<string, unknown>;
  },
): Record<string, unknown> {
  const schema = toolSchema(tool);
  if (options.given) {
    const names = Object.keys(schema.properties ?? {});
    if (names.length === 0) return options.given;
    return Object.fromEntries(Object.entries(options.given).filter(([key]) => names.includes(key)));
  }
  const source = argSource(options.message, tool, options.mentions);
  if (options.preset) source.json = { ...source.json, ...options.preset };
  return buildObject(schema, source, schema, true);
}

/** The main type of one property of a tool's input schema (`string` when unknown). */
export function propertyType(tool: LanguageModelV4FunctionTool, name: string): string {
  const schema = toolSchema(tool);
  return schemaType(resolve(schema.properties?.[name], schema));
}

/** The `enum` of one field of the items of an array property (e.g. `components[].component`). */
export function itemEnum(
  tool: LanguageModelV4FunctionTool,
  property: string,
  field: string,
): unknown[] | undefined {
  const schema = toolSchema(tool);
  const array = resolve(schema.properties?.[property], schema);
  const item = resolve(Array.isArray(array.items) ? array.items[0] : array.items, schema);
  return resolve(item.properties?.[field], schema).enum;
}

/** A value for a JSON response schema, filled from the message like tool arguments. */
export function schemaValue(schemaDef: unknown, message: string): unknown {
  const schema: JsonSchema = isRecord(schemaDef) ? schemaDef : {};
  const source = argSource(message, undefined, []);
  return schemaType(schema) === "object"
    ? buildObject(schema, source, schema, true)
    : fillValue(resolve(schema, schema), source, schema, true);
}

// ---- reading the message ----

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
export function findJsonObject(
  text: string,
): { text: string; value: Record<string, unknown> } | undefined {
  const found = findJson(text, "{", "}");
  return found && isRecord(found.value) ? { text: found.text, value: found.value } : undefined;
}

/** The first JSON array written in the message, with its source text. */
export function findJsonArray(text: string): { text: string; value: unknown[] } | undefined {
  const found = findJson(text, "[", "]");
  return found && Array.isArray(found.value) ? { text: found.text, value: found.value } : undefined;
}

/** The first balanced `open`...`close` span of the text that parses as JSON. */
function findJson(
  text: string,
  open: string,
  close: string,
): { text: string; value: unknown } | undefined {
  for (let start = text.indexOf(open); start >= 0; start = text.indexOf(open, start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === "\\") i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === open) depth++;
      else if (c === close && --depth === 0) {
        const candidate = text.slice(start, i + 1);
        try {
          return { text: candidate, value: JSON.parse(candidate) };
        } catch { /* not JSON: try the next bracket */ }
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

// ---- filling the schema ----

/** The tool's input schema, or an empty schema when it is not an object. */
function toolSchema(tool: LanguageModelV4FunctionTool): JsonSchema {
  return isRecord(tool.inputSchema) ? tool.inputSchema : {};
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
    const match = findAlias(String(value), message);
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
    values = item.enum.filter((v) => typeof v === "string" && findAlias(v, source.message));
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

/** Whether a value is a plain JSON object. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
