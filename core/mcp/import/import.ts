/**
 * Imports the MCP server lists of eleven clients' config files, and a registry `server.json`, as
 * `mcpServers[]` records.
 */
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";
import { McpServerSchema } from "../../../wire/config/mcp_server_schema.ts";
import { detailsFromIssues, LassError } from "../../errors.ts";
import { detectFormat, isRecord, MCP_SERVERS_FORMATS, readServers } from "./formats.ts";
import { type ServerDraft, type ServerEntry } from "./types.ts";
import { literalSecrets, secretWarning } from "./secrets.ts";
import { slugId, uniqueId } from "../server_ids.ts";
import type { ImportFormat, ImportResult, ImportSecret } from "../../../wire/tool_servers.ts";
import type { McpServerInput } from "../../../wire/config/schema.ts";

/** Every {@link ImportFormat}, in the order the request schema lists them. */
export const IMPORT_FORMATS: readonly ImportFormat[] = [
  "claude-desktop",
  "claude-code",
  "cursor",
  "vscode",
  "windsurf",
  "zed",
  "cline",
  "continue",
  "goose",
  "codex",
  "gemini",
  "server-json",
];

/** Options of {@link importClientConfig}. */
export interface ImportOptions {
  /** Reads the config as this client's format (and syntax) instead of detecting it. */
  format?: ImportFormat;
  /** Ids already in use; new ids avoid them with `-2`, `-3`... */
  existingIds?: Iterable<string>;
}

/**
 * Turns a client config (text in JSON with comments, YAML or TOML, or a parsed object) into
 * records valid against `McpServerSchema`. Placeholders are kept, never resolved; a server that
 * cannot be made valid becomes a warning. Throws `invalid-request` when no server map is found.
 */
export function importClientConfig(
  json: string | Record<string, unknown>,
  options: ImportOptions = {},
): ImportResult {
  const { root, format } = typeof json === "string"
    ? parseText(json, options.format)
    : parsedRoot(json, options.format);
  const existingIds = Array.from(options.existingIds ?? []);
  const result = readAs(root, format, existingIds);
  const sameShape = options.format || !MCP_SERVERS_FORMATS.includes(format)
    ? []
    : MCP_SERVERS_FORMATS.filter((other) => other !== format && sameReading(other));
  return { ...result, format, sameShape };

  function sameReading(other: ImportFormat): boolean {
    try {
      return JSON.stringify(readAs(root, other, existingIds)) === JSON.stringify(result);
    } catch {
      return false;
    }
  }
}

/** The records, warnings and literal secrets of a parsed config read as `format`. */
function readAs(
  root: Record<string, unknown>,
  format: ImportFormat,
  existingIds: string[],
): Omit<ImportResult, "format" | "sameShape"> {
  const { entries, prompts } = readServers(root, format);
  const taken = new Set(existingIds.map((id) => id.toLowerCase()));
  const variables = new Map<string, string>();
  const servers: McpServerInput[] = [];
  const warnings: string[] = [];
  const secrets: ImportSecret[] = [];
  for (const entry of entries) {
    const { server, notes } = toServer(entry, { prompts, taken });
    if (server) servers.push(server);
    warnings.push(...new Set(notes.map((note) => `${entry.key}: ${note}`)));
    for (const secret of server ? literalSecrets(server, variables) : []) {
      const warning = `${entry.key}: ${secretWarning(secret)}`;
      warnings.push(warning);
      secrets.push({ ...secret, warning });
    }
  }
  if (entries.length === 0) warnings.push("the config lists no servers");
  return { servers, warnings, secrets };
}

interface Parsed {
  root: Record<string, unknown>;
  format: ImportFormat;
}

function invalid(message: string, detail: string): LassError {
  return new LassError("invalid-request", message, [{ path: "json", message: detail }]);
}

function parsedRoot(value: unknown, forced: ImportFormat | undefined): Parsed {
  if (!isRecord(value)) throw notAMap(value);
  const format = forced ?? detectFormat(value);
  if (format === undefined) throw noServerMap();
  return { root: value, format };
}

function notAMap(value: unknown): LassError {
  if (Array.isArray(value)) return listRoot();
  return invalid("The config is not an object holding MCP servers.", `is a ${typeof value}`);
}

function listRoot(): LassError {
  return invalid(
    'The config is a list; expected an object holding the servers, such as {"mcpServers": {}}.',
    "must be an object, not an array",
  );
}

function noServerMap(): LassError {
  return invalid(
    "The config has no MCP server map: expected mcpServers, servers, context_servers, " +
      "extensions or mcp_servers, or a server.json's packages or remotes.",
    "has no recognisable server map",
  );
}

type Syntax = "JSON" | "YAML" | "TOML";

const PARSERS: Record<Syntax, (text: string) => unknown> = {
  JSON: (text) => JSON.parse(stripJsonc(text)),
  YAML: (text) => parseYaml(text),
  TOML: (text) => parseToml(text),
};

function syntaxOf(format: ImportFormat): Syntax {
  if (format === "codex") return "TOML";
  return format === "continue" || format === "goose" ? "YAML" : "JSON";
}

/** Tries JSON (with comments), YAML, then TOML; the first object with a server map wins. */
function parseText(text: string, forced: ImportFormat | undefined): Parsed {
  const source = text.replace(/^\uFEFF/, "");
  if (source.trim() === "") throw invalid("The config is empty.", "is empty");
  const order: Syntax[] = forced ? [syntaxOf(forced)] : ["JSON", "YAML", "TOML"];
  const errors = new Map<Syntax, string>();
  const shapes = new Set<string>();
  for (const syntax of order) {
    let value: unknown;
    try {
      value = PARSERS[syntax](source);
    } catch (error) {
      errors.set(syntax, error instanceof Error ? error.message : String(error));
      continue;
    }
    if (isRecord(value)) {
      const format = forced ?? detectFormat(value);
      if (format) return { root: value, format };
    }
    shapes.add(isRecord(value) ? "object" : Array.isArray(value) ? "array" : typeof value);
  }
  if (shapes.has("object")) throw noServerMap();
  if (shapes.has("array")) throw listRoot();
  const syntax = forced ? syntaxOf(forced) : likelySyntax(source);
  const reason = errors.get(syntax)?.split("\n")[0].replace(/:$/, "").slice(0, 200) ??
    `reads as a plain ${[...shapes][0] ?? "value"}, not an object`;
  throw invalid(
    forced ? `The config is not valid ${syntax}.` : "The config is not valid JSON, YAML or TOML.",
    `${syntax}: ${reason}`,
  );
}

/** The syntax a text that parsed as nothing useful was most likely meant to be in. */
function likelySyntax(text: string): Syntax {
  if (/^\s*\[[\w."' -]+\]\s*$/m.test(text) || /^\s*[\w."-]+\s*=/m.test(text)) return "TOML";
  if (/^\s*[[{]/.test(text)) return "JSON";
  return /^\s*(?:- |[\w"'.-]+:(?:\s|$))/m.test(text) ? "YAML" : "JSON";
}

/**
 * JSON with comments (VS Code's and Zed's JSONC) to JSON: drops `//` and block comments and
 * trailing commas, leaving strings alone.
 */
function stripJsonc(text: string): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
    } else if (char === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      i = skipComment(text, i);
    } else if (char === "," && /^[}\]]$/.test(text[skipTrivia(text, i + 1)] ?? "")) {
      i++;
    } else {
      out += char;
      i++;
    }
  }
  return out;
}

/** The index just after the string starting at `start` (or the end of an unterminated one). */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
  return Math.min(i + 1, text.length);
}

/** The index after the comment at `start`; a line comment keeps its newline. */
function skipComment(text: string, start: number): number {
  if (text[start + 1] === "/") {
    const end = text.indexOf("\n", start);
    return end < 0 ? text.length : end;
  }
  const end = text.indexOf("*/", start + 2);
  return end < 0 ? text.length : end + 2;
}

function skipTrivia(text: string, start: number): number {
  let i = start;
  while (i < text.length) {
    if (/\s/.test(text[i])) i++;
    else if (text[i] === "/" && (text[i + 1] === "/" || text[i + 1] === "*")) {
      i = skipComment(text, i);
    } else break;
  }
  return i;
}

interface ServerContext {
  /** VS Code input prompts by input id. */
  prompts: Map<string, string>;
  /** Lowercased ids in use, including the ones given out so far. */
  taken: Set<string>;
}

/** One entry to a valid record, or its reason for not being imported. */
function toServer(
  entry: ServerEntry,
  context: ServerContext,
): { server?: McpServerInput; notes: string[] } {
  if (!entry.draft) return { notes: entry.notes };
  const notes = [...entry.notes];
  const draft = withPlaceholders(entry.draft, (value) => placeholders(value, context, notes));
  notes.push(...commandHints(draft));
  const server = toRecord(uniqueId(slugId(entry.key), context.taken), entry.key, draft);
  const checked = McpServerSchema.safeParse(server);
  if (!checked.success) {
    const problems = detailsFromIssues(checked.error.issues)
      .map((detail) => `${detail.path} ${detail.message}`.trim());
    return { notes: [`not imported: ${problems.join("; ")}`] };
  }
  context.taken.add(server.id);
  return { server, notes };
}

/** The record with only the fields that say something (no empty lists or maps). */
function toRecord(id: string, name: string, draft: ServerDraft): McpServerInput {
  const server: McpServerInput = { id, name, transport: draft.transport };
  if (draft.command !== undefined) server.command = draft.command;
  if (draft.args?.length) server.args = draft.args;
  if (draft.env && Object.keys(draft.env).length) server.env = draft.env;
  if (draft.cwd !== undefined) server.cwd = draft.cwd;
  if (draft.url !== undefined) server.url = draft.url;
  if (draft.headers && Object.keys(draft.headers).length) server.headers = draft.headers;
  if (draft.disabledTools?.length) server.disabledTools = draft.disabledTools;
  if (draft.timeoutMs !== undefined) server.timeoutMs = draft.timeoutMs;
  if (draft.scopes?.length) server.oauth = { scopes: draft.scopes };
  if (draft.trusted) server.approval = { default: "auto" };
  if (draft.autoApprove?.length) {
    const tools = Object.fromEntries(draft.autoApprove.map((tool) => [tool, "auto" as const]));
    server.approval = { ...server.approval, tools };
  }
  return server;
}

/** The draft with `rewrite` applied to every string that may hold a placeholder. */
function withPlaceholders(draft: ServerDraft, rewrite: (value: string) => string): ServerDraft {
  const map = (values?: Record<string, string>) =>
    values && Object.fromEntries(Object.entries(values).map(([k, v]) => [k, rewrite(v)]));
  return {
    ...draft,
    command: draft.command === undefined ? undefined : rewrite(draft.command),
    args: draft.args?.map(rewrite),
    env: map(draft.env),
    cwd: draft.cwd === undefined ? undefined : rewrite(draft.cwd),
    url: draft.url === undefined ? undefined : rewrite(draft.url),
    headers: map(draft.headers),
  };
}

const PLACEHOLDER = /\$\{\{\s*(secrets|inputs)\.([^}\s]+)\s*\}\}|\$\{([^{}]*)\}/g;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const EDITOR_VARIABLES = new Set(["workspaceFolder", "workspaceFolderBasename", "userHome"]);

/**
 * Rewrites a value's placeholders into Lass's `${VAR}`, noting what is lost: a default
 * (`${VAR:-x}`), an input prompt (`${input:id}`, Continue `${{ secrets.X }}`).
 */
function placeholders(value: string, context: ServerContext, notes: string[]): string {
  return value.replace(PLACEHOLDER, (whole, kind?: string, ref?: string, body = "") => {
    if (kind && ref) {
      const name = variableName(ref);
      notes.push(`Continue ${kind.slice(0, -1)} ${whole} became \${${name}}; set ${name} for Lass`);
      return `\${${name}}`;
    }
    if (VARIABLE.test(body)) {
      if (EDITOR_VARIABLES.has(body)) {
        notes.push(`${whole} is an editor variable; Lass reads ${body} from its environment`);
      }
      return whole;
    }
    const withDefault = /^([A-Za-z_][A-Za-z0-9_]*):?-(.*)$/s.exec(body);
    if (withDefault) {
      const [, name, fallback] = withDefault;
      notes.push(`${whole} lost its default "${fallback}"; it is now \${${name}}`);
      return `\${${name}}`;
    }
    const envRef = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(body);
    if (envRef) return `\${${envRef[1]}}`;
    if (body.startsWith("input:")) {
      const id = body.slice("input:".length);
      const name = variableName(id);
      const prompt = context.prompts.get(id);
      const asked = prompt === undefined ? "an undeclared input" : `the prompt "${prompt}"`;
      notes.push(`${whole} (${asked}) became \${${name}}; set ${name} for Lass`);
      return `\${${name}}`;
    }
    notes.push(`${whole} is not a variable Lass knows; it stays as literal text`);
    return whole;
  });
}

/** An environment variable name for an input id: `gh-token` → `GH_TOKEN`. */
function variableName(id: string): string {
  const name = id.toUpperCase().replace(/[^A-Z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
  return /^[0-9]/.test(name) ? `_${name}` : name || "INPUT";
}

/** Hints about stdio commands that only worked through a shell or a remote bridge. */
function commandHints(draft: ServerDraft): string[] {
  if (draft.transport !== "stdio" || draft.command === undefined) return [];
  const args = draft.args ?? [];
  const hints: string[] = [];
  if (/\s/.test(draft.command.trim()) && args.length === 0) {
    hints.push("command has spaces and no args; it probably ran through a shell, so split it");
  }
  const bridge = args.findIndex((arg) => /^mcp-remote(?:@.*)?$/.test(arg));
  const url = bridge < 0 ? undefined : args[bridge + 1];
  if (url && /^https?:\/\//.test(url)) {
    hints.push(`it runs mcp-remote for ${url}; consider importing that URL as an http server`);
  }
  return hints;
}
