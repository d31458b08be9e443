/**
 * SEP-2243 `Mcp-Param-*` headers (2026-07-28, Streamable HTTP): a `tools/call` mirrors each
 * argument whose input-schema property carries `x-mcp-header: "<Name>"` into the header
 * `Mcp-Param-<Name>`. The SDK's `callTool` does this itself; Lass's own `tools/call` path (tasks)
 * uses this module.
 */

const HEADER = "x-mcp-header";
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const SENTINEL_PREFIX = "=?base64?";
const SENTINEL_SUFFIX = "?=";

/** One declared header: where its value sits in the arguments, and its name. */
interface Declaration {
  path: string[];
  name: string;
}

/** The declarations reachable through `properties` chains (where the spec allows them). */
function declarationsOf(schema: unknown, path: string[] = []): Declaration[] {
  if (schema === null || typeof schema !== "object") return [];
  const node = schema as Record<string, unknown>;
  const out: Declaration[] = [];
  const name = node[HEADER];
  if (path.length > 0 && typeof name === "string" && TOKEN.test(name)) out.push({ path, name });
  const properties = node.properties;
  if (properties && typeof properties === "object") {
    for (const [key, child] of Object.entries(properties)) {
      out.push(...declarationsOf(child, [...path, key]));
    }
  }
  return out;
}

/** A primitive argument as header text; anything else is left out. */
function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return String(value);
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** The value as an HTTP field value: plain ASCII as it is, anything else Base64 in the sentinel. */
export function encodeParamValue(text: string): string {
  const plain = text.length > 0 && text === text.trim() &&
    !(text.startsWith(SENTINEL_PREFIX) && text.endsWith(SENTINEL_SUFFIX)) &&
    [...text].every((char) => char === "\t" || (char >= " " && char <= "~"));
  if (plain) return text;
  const bytes = new TextEncoder().encode(text);
  return `${SENTINEL_PREFIX}${btoa(String.fromCharCode(...bytes))}${SENTINEL_SUFFIX}`;
}

/** The `Mcp-Param-*` headers of one call of a tool with this input schema. */
export function paramHeaders(
  inputSchema: unknown,
  args: Record<string, unknown>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, name } of declarationsOf(inputSchema)) {
    let value: unknown = args;
    for (const key of path) {
      value = value !== null && typeof value === "object"
        ? (value as Record<string, unknown>)[key]
        : undefined;
    }
    const text = value === undefined || value === null ? undefined : textOf(value);
    if (text !== undefined) headers[`Mcp-Param-${name}`] = encodeParamValue(text);
  }
  return headers;
}
