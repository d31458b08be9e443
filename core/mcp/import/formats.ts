/** Readers of the eleven MCP client config shapes and `server.json`, which the import reads. */
import type { ReadResult, ServerDraft, ServerEntry } from "./types.ts";
import { LassError } from "../../errors.ts";
import type { ImportFormat, ToolServerTransport } from "../../../wire/tool_servers.ts";
import { isServerJson, readServerJson } from "./server_json.ts";

type Root = Record<string, unknown>;
type ReadOne = (raw: Root, notes: string[], key: string) => ServerDraft;

/** A field that makes its entry unreadable; the entry becomes a warning. */
class FieldProblem extends Error {}

/** Whether a value is a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Root {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Text of a scalar; YAML and TOML write numbers and booleans unquoted. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

function text(raw: Root, field: string): string | undefined {
  if (raw[field] == null) return undefined;
  const value = scalarText(raw[field]);
  if (value === undefined) throw new FieldProblem(`${field} must be a string`);
  return value;
}

function textList(raw: Root, field: string): string[] | undefined {
  const value = raw[field];
  if (value == null) return undefined;
  const items = Array.isArray(value) ? value.map(scalarText) : [undefined];
  if (items.includes(undefined)) throw new FieldProblem(`${field} must be a list of strings`);
  return items as string[];
}

function textMap(raw: Root, field: string, label = field): Record<string, string> | undefined {
  const value = raw[field];
  if (value == null) return undefined;
  if (!isRecord(value)) throw new FieldProblem(`${label} must be a map of strings`);
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      const itemText = scalarText(item);
      if (itemText === undefined) throw new FieldProblem(`${label}.${key} must be a string`);
      return [key, itemText];
    }),
  );
}

const TRANSPORT_NAMES: Record<string, ToolServerTransport> = {
  stdio: "stdio",
  local: "stdio",
  local_stdio: "stdio",
  http: "http",
  "streamable-http": "http",
  streamablehttp: "http",
  streamable_http: "http",
  sse: "sse",
};

/** How a URL under a key is read when no `type` says: fixed, a guess, or http unless `/sse`. */
type UrlMode = ToolServerTransport | "guess" | "http-or-sse";

interface Shape {
  urlKeys: Record<string, UrlMode>;
  command?: string;
  env?: string;
}

const USUAL: Shape = { urlKeys: { url: "guess" } };
const SSE_PATH = /\/sse\/?(?:[?#].*)?$/i;

function declaredTransport(raw: Root): ToolServerTransport | undefined {
  for (const field of ["type", "transport", "transportType"]) {
    const value = text(raw, field);
    if (value === undefined) continue;
    const transport = TRANSPORT_NAMES[value.toLowerCase()];
    if (transport) return transport;
    throw new FieldProblem(`${field} "${value}" is not a transport Lass has (stdio, http or sse)`);
  }
  return undefined;
}

function urlTransport(url: string, mode: UrlMode, notes: string[]): ToolServerTransport {
  if (mode === "http" || mode === "sse") return mode;
  const sse = SSE_PATH.test(url);
  if (sse) notes.push("no transport type; guessed sse from the /sse URL path");
  else if (mode === "guess") notes.push("no transport type; guessed http (Streamable HTTP)");
  return sse ? "sse" : "http";
}

/** The fields most clients share: a transport, then stdio or remote fields. */
function readCommon(raw: Root, notes: string[], shape: Shape = USUAL): ServerDraft {
  const declared = declaredTransport(raw);
  const command = text(raw, shape.command ?? "command");
  const urlKey = Object.keys(shape.urlKeys).find((key) => raw[key] != null);
  const url = urlKey === undefined ? undefined : text(raw, urlKey);
  const transport = declared ??
    (command !== undefined ? "stdio" : undefined) ??
    (url !== undefined && urlKey ? urlTransport(url, shape.urlKeys[urlKey], notes) : undefined);
  if (transport === undefined) throw new FieldProblem("it has neither a command nor a URL");
  if (transport !== "stdio") return { transport, url, headers: textMap(raw, "headers") };
  const env = textMap(raw, shape.env ?? "env");
  return { transport, command, args: textList(raw, "args"), env, cwd: text(raw, "cwd") };
}

function collect(pairs: [string, unknown][], readOne: ReadOne): ServerEntry[] {
  return pairs.map(([key, value]) => {
    if (!isRecord(value)) return { key, notes: ["not imported: it is not an object"] };
    const notes: string[] = [];
    try {
      return { key, draft: readOne(value, notes, key), notes };
    } catch (error) {
      if (!(error instanceof FieldProblem)) throw error;
      return { key, notes: [`not imported: ${error.message}`] };
    }
  });
}

function noteDisabled(disabled: boolean, how: string, notes: string[]): void {
  if (disabled) notes.push(`it is disabled in the source config (${how}); imported anyway`);
}

function noteAllowList(tools: string[] | undefined, field: string, notes: string[]): void {
  if (!tools?.length) return;
  notes.push(
    `${field} allows only ${tools.join(", ")}; Lass has no allow-list, so all tools are offered`,
  );
}

function noteEnvFile(raw: Root, notes: string[]): void {
  const file = text(raw, "envFile");
  if (file !== undefined) notes.push(`envFile ${file} is not read; copy its variables into env`);
}

/** `env[K] = "${K}"` for variables the client passed through from its own environment. */
function passThrough(names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, `\${${name}}`]));
}

const ROOT_KEYS: Record<ImportFormat, string> = {
  "claude-desktop": "mcpServers",
  "claude-code": "mcpServers",
  cursor: "mcpServers",
  vscode: "servers",
  windsurf: "mcpServers",
  zed: "context_servers",
  cline: "mcpServers",
  continue: "mcpServers",
  goose: "extensions",
  codex: "mcp_servers",
  gemini: "mcpServers",
  "server-json": "packages",
};

function serverMap(root: Root, format: ImportFormat): Root {
  const map = root[ROOT_KEYS[format]];
  if (isRecord(map)) return map;
  throw missingServers(format);
}

function missingServers(format: ImportFormat): LassError {
  const field = ROOT_KEYS[format];
  return new LassError(
    "invalid-request",
    `The config has no ${field}, where the ${format} format keeps its servers.`,
    [{ path: "json", message: `has no ${field}` }],
  );
}

function read(root: Root, format: ImportFormat, readOne: ReadOne): ReadResult {
  return { entries: collect(Object.entries(serverMap(root, format)), readOne), prompts: new Map() };
}

function readClaudeCode(raw: Root, notes: string[]): ServerDraft {
  if (raw.headersHelper != null) {
    notes.push("headersHelper (a command that prints headers) is not supported; set headers");
  }
  return readCommon(raw, notes);
}

/** Cursor and VS Code: the usual fields, and an `envFile` Lass does not read. */
function readWithEnvFile(raw: Root, notes: string[]): ServerDraft {
  noteEnvFile(raw, notes);
  return readCommon(raw, notes);
}

function readVscode(root: Root): ReadResult {
  const settings = isRecord(root.mcp) && !isRecord(root.servers) ? root.mcp : root;
  const prompts = new Map<string, string>();
  for (const input of Array.isArray(settings.inputs) ? settings.inputs : []) {
    if (isRecord(input) && typeof input.id === "string") {
      prompts.set(input.id, scalarText(input.description) ?? input.id);
    }
  }
  const map = serverMap(settings, "vscode");
  return { entries: collect(Object.entries(map), readWithEnvFile), prompts };
}

function readWindsurf(raw: Root, notes: string[]): ServerDraft {
  noteDisabled(raw.disabled === true, "disabled: true", notes);
  const draft = readCommon(raw, notes, { urlKeys: { serverUrl: "http-or-sse", url: "guess" } });
  return { ...draft, disabledTools: textList(raw, "disabledTools") };
}

function readZed(raw: Root, notes: string[]): ServerDraft {
  const legacy = isRecord(raw.command) ? raw.command : undefined;
  const server = legacy
    ? { ...raw, command: legacy.path, args: legacy.args, env: legacy.env }
    : raw;
  if (server.command == null && server.url == null && server.source !== "custom") {
    throw new FieldProblem("it comes from a Zed extension, which Lass cannot run");
  }
  noteDisabled(raw.enabled === false, "enabled: false", notes);
  return readCommon(server, notes);
}

function readCline(raw: Root, notes: string[]): ServerDraft {
  noteDisabled(raw.disabled === true, "disabled: true", notes);
  const draft = readCommon(raw, notes);
  const autoApprove = [
    ...textList(raw, "autoApprove") ?? [],
    ...textList(raw, "alwaysAllow") ?? [],
  ];
  return { ...draft, disabledTools: textList(raw, "disabledTools"), autoApprove };
}

function readContinue(root: Root): ReadResult {
  const pairs = continueBlocks(root).map((item, index): [string, unknown] => {
    const name = isRecord(item) ? scalarText(item.name) : undefined;
    return [name?.trim() ? name : `mcpServers[${index}]`, item];
  });
  return { entries: collect(pairs, readContinueBlock), prompts: new Map() };
}

/** The `mcpServers` list, or a lone block file that is one server. */
function continueBlocks(root: Root): unknown[] {
  if (Array.isArray(root.mcpServers)) return root.mcpServers;
  if (typeof root.name === "string" && (root.command != null || root.url != null)) return [root];
  throw missingServers("continue");
}

function readContinueBlock(raw: Root, notes: string[]): ServerDraft {
  const uses = text(raw, "uses");
  if (uses !== undefined) throw new FieldProblem(`it uses the hub block ${uses}; import that file`);
  if (!scalarText(raw.name)?.trim()) throw new FieldProblem("it has no name");
  const draft = readCommon(raw, notes);
  if (draft.transport === "stdio" || !isRecord(raw.requestOptions)) return draft;
  const headers = textMap(raw.requestOptions, "headers", "requestOptions.headers");
  return { ...draft, headers: { ...draft.headers, ...headers } };
}

const GOOSE_MCP_TYPES = new Set(["stdio", "sse", "streamable_http"]);

function readGoose(raw: Root, notes: string[]): ServerDraft {
  const type = text(raw, "type");
  if (type !== undefined && !GOOSE_MCP_TYPES.has(type)) {
    throw new FieldProblem(`it is a goose ${type} extension, not an MCP server`);
  }
  noteDisabled(raw.enabled === false, "enabled: false", notes);
  const draft = readCommon(raw, notes, { command: "cmd", env: "envs", urlKeys: { uri: "guess" } });
  const keys = textList(raw, "env_keys") ?? [];
  noteAllowList(textList(raw, "available_tools"), "available_tools", notes);
  if (draft.transport === "stdio") return { ...draft, env: { ...passThrough(keys), ...draft.env } };
  if (keys.length || Object.keys(textMap(raw, "envs") ?? {}).length) {
    notes.push("envs and env_keys do not apply to a remote server in Lass; they were left out");
  }
  return draft;
}

function readCodex(raw: Root, notes: string[]): ServerDraft {
  noteDisabled(raw.enabled === false, "enabled = false", notes);
  const draft = readCommon(raw, notes, { urlKeys: { url: "http" } });
  noteAllowList(textList(raw, "enabled_tools"), "enabled_tools", notes);
  const common = {
    disabledTools: textList(raw, "disabled_tools"),
    timeoutMs: codexTimeout(raw, notes),
  };
  if (draft.transport === "stdio") {
    const env = { ...passThrough(textList(raw, "env_vars") ?? []), ...draft.env };
    return { ...draft, ...common, env };
  }
  const fromEnv = Object.entries(textMap(raw, "env_http_headers") ?? {})
    .map(([header, name]) => [header, `\${${name}}`]);
  const bearer = text(raw, "bearer_token_env_var");
  const headers = {
    ...textMap(raw, "http_headers"),
    ...Object.fromEntries(fromEnv),
    ...bearer === undefined ? {} : { authorization: `Bearer \${${bearer}}` },
  };
  return { ...draft, ...common, headers, scopes: textList(raw, "scopes") };
}

function codexTimeout(raw: Root, notes: string[]): number | undefined {
  const seconds = raw.startup_timeout_sec;
  const ms = typeof seconds === "number" ? seconds * 1000 : raw.startup_timeout_ms;
  if (typeof ms !== "number") return undefined;
  if (ms >= 100 && ms <= 600_000) return Math.round(ms);
  notes.push(
    `its startup timeout of ${ms} ms is outside Lass's 100-600000 ms; the default is used`,
  );
  return undefined;
}

function readGemini(root: Root): ReadResult {
  const excluded = isRecord(root.mcp) && Array.isArray(root.mcp.excluded) ? root.mcp.excluded : [];
  return read(root, "gemini", (raw, notes, key) => {
    noteDisabled(excluded.includes(key), "listed in mcp.excluded", notes);
    const draft = readCommon(raw, notes, { urlKeys: { httpUrl: "http", url: "sse" } });
    noteAllowList(textList(raw, "includeTools"), "includeTools", notes);
    const env = draft.env &&
      Object.fromEntries(
        Object.entries(draft.env).map(([name, value]) => [name, bracedVars(value)]),
      );
    return {
      ...draft,
      env,
      disabledTools: textList(raw, "excludeTools"),
      trusted: raw.trust === true,
    };
  });
}

/** Gemini expands `$VAR` in env values too; Lass only knows `${VAR}`. */
function bracedVars(value: string): string {
  return value.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => `\${${name}}`);
}

const READERS: Record<ImportFormat, (root: Root) => ReadResult> = {
  "claude-desktop": (root) => read(root, "claude-desktop", (raw, notes) => readCommon(raw, notes)),
  "claude-code": (root) => read(root, "claude-code", readClaudeCode),
  cursor: (root) => read(root, "cursor", readWithEnvFile),
  vscode: readVscode,
  windsurf: (root) => read(root, "windsurf", readWindsurf),
  zed: (root) => read(root, "zed", readZed),
  cline: (root) => read(root, "cline", readCline),
  continue: readContinue,
  goose: (root) => read(root, "goose", readGoose),
  codex: (root) => read(root, "codex", readCodex),
  gemini: readGemini,
  "server-json": readServerJson,
};

/** Reads the server entries of a parsed config in one format; throws when its map is missing. */
export function readServers(root: Root, format: ImportFormat): ReadResult {
  return READERS[format](root);
}

/** The formats that keep their servers in an `mcpServers` map, most general first. */
export const MCP_SERVERS_FORMATS: readonly ImportFormat[] = [
  "claude-desktop",
  "claude-code",
  "cursor",
  "windsurf",
  "cline",
  "gemini",
];

/** Top-level fields only Claude Desktop's `claude_desktop_config.json` has. */
const CLAUDE_DESKTOP_KEYS = ["globalShortcut", "preferences", "isUsingBuiltInNodeForMcp"];

/** The format a parsed config is in, from its root keys and its entries' fields. */
export function detectFormat(root: Root): ImportFormat | undefined {
  if (isRecord(root.mcp_servers)) return "codex";
  if (isRecord(root.servers) || (isRecord(root.mcp) && isRecord(root.mcp.servers))) return "vscode";
  if (isRecord(root.context_servers)) return "zed";
  if (Array.isArray(root.mcpServers)) return "continue";
  if (isRecord(root.mcpServers)) return mcpServersFlavour(root, root.mcpServers);
  if (isRecord(root.extensions)) return "goose";
  if (isServerJson(root)) return "server-json";
  if (typeof root.name === "string" && (root.command != null || root.url != null)) {
    return "continue";
  }
  return undefined;
}

/** Which of the `mcpServers` map formats a config is, by the fields only one client writes. */
function mcpServersFlavour(root: Root, map: Root): ImportFormat {
  if (CLAUDE_DESKTOP_KEYS.some((key) => key in root)) return "claude-desktop";
  const servers = Object.values(map).filter(isRecord);
  const has = (...fields: string[]) => servers.some((raw) => fields.some((f) => raw[f] != null));
  if (has("httpUrl", "trust", "includeTools", "excludeTools") || isRecord(root.mcp)) {
    return "gemini";
  }
  if (has("serverUrl")) return "windsurf";
  if (has("autoApprove", "alwaysAllow", "transportType")) return "cline";
  if (servers.some((raw) => raw.type === "streamableHttp")) return "cline";
  if (has("type")) return "claude-code";
  if (has("url", "envFile")) return "cursor";
  return "claude-desktop";
}
