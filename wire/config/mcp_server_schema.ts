/** The `mcpServers[]` record of `service.json`: a tool server, its transport, OAuth and roots. */
import { z } from "zod";
import { HttpUrl, Id, Name, Secretish, StringMap } from "./_record_fields.ts";
import { CONFIG_DEFAULTS } from "./field_defaults.ts";
import { OAuthSchema } from "./mcp_oauth_schema.ts";

/**
 * The tool-server transports: `http` is Streamable HTTP; `replay` serves a recorded cassette in
 * process (docs/recordings.md).
 */
export const TRANSPORTS = ["stdio", "http", "sse", "replay"] as const;

const ApprovalMode = z.enum(["auto", "ask"]);

/** Whether a text is an absolute `file:` URI (`file:///home/me/project`). */
function isFileUri(value: string): boolean {
  if (!value.startsWith("file://")) return false;
  try {
    return new URL(value).pathname.startsWith("/");
  } catch {
    return false;
  }
}

/** One root offered to a tool server (`roots/list`): a folder or file it may work in. */
const Root = z.strictObject({
  uri: z.string().refine(isFileUri, {
    message: "must be a file:// URI, e.g. file:///home/me/project",
  }),
  name: z.string().optional().meta({ description: "A label for the root" }),
});

/** One `mcpServers[]` record: a tool server. */
export const McpServerSchema = z.strictObject({
  id: Id.refine((id) => !id.includes("__"), {
    message: "must not contain '__', which separates server and tool in model tool names",
  }).meta({ description: "Unique id; also the prefix of the model-visible tool names" }),
  name: Name.meta({ description: "Display name" }),
  transport: z.enum(TRANSPORTS).meta({
    description: "stdio, http (Streamable HTTP), sse, or replay (a recorded cassette)",
  }),
  command: Secretish.optional().meta({
    description: "stdio: executable; `service:demo` is the built-in demo server",
  }),
  args: z.array(Secretish).optional().meta({ description: "stdio: arguments" }),
  env: StringMap.optional().meta({ description: "stdio: extra environment variables" }),
  inheritEnv: z.array(
    z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, {
      message: "must be an environment variable name",
    }),
  ).optional().meta({
    description: "stdio: names of Lass's environment variables passed through to the server " +
      "(it otherwise gets only HOME, PATH and a few more, plus `env`, which wins); never all",
  }),
  cwd: z.string().optional().meta({ description: "stdio: working directory" }),
  url: HttpUrl.optional().meta({ description: "http/sse: endpoint" }),
  headers: StringMap.optional().meta({ description: "http/sse: request headers" }),
  cassette: z.string().min(1).optional().meta({
    description: "replay: the cassette file (`*.cassette.json`), relative to the config's folder",
  }),
  match: z.enum(["exact", "tool"]).optional().meta({
    description: "replay: `exact` (default) answers a request recorded with the same method and " +
      "params; `tool` lets a tools/call fall back to the same tool's closest arguments",
  }),
  speed: z.number().min(0).max(1000).optional().meta({
    description: "replay: recorded delays are divided by it (default 1, as recorded; 0 answers " +
      "at once)",
  }),
  disabledTools: z.array(z.string()).optional().meta({
    description: "Tools hidden from the model",
  }),
  timeoutMs: z.int().min(100).max(600_000).default(CONFIG_DEFAULTS.timeoutMs).meta({
    description: "Connect timeout in milliseconds",
  }),
  callTimeoutMs: z.int().min(100).max(3_600_000).optional().meta({
    description: "Deadline of a tool call, resource read or prompt in milliseconds (default " +
      "120000); `timeoutMs` of `POST /api/mcp/:id/call` overrides it for one call",
  }),
  progressExtendsTimeout: z.boolean().optional().meta({
    description: "Whether progress notifications restart a call's deadline (default false: a " +
      "call ends at its deadline, progress or not), up to `maxTotalTimeoutMs`",
  }),
  maxTotalTimeoutMs: z.int().min(100).max(86_400_000).optional().meta({
    description: "With `progressExtendsTimeout`: the longest a call may run in milliseconds " +
      "(default ten times its deadline)",
  }),
  protocolEra: z.enum(["auto", "legacy", "modern"]).default("auto").meta({
    description: "MCP protocol era: `auto` probes 2026-07-28 and falls back to the 2025 " +
      "`initialize`; `legacy` speaks only 2025; `modern` only 2026-07-28",
  }),
  trace: z.boolean().default(true).meta({
    description: "Record every JSON-RPC message to and from the server (the last 2,000, " +
      "`GET /api/mcp/:id/trace`); `false` records nothing. A change applies without a reconnect",
  }),
  oauth: OAuthSchema.optional().meta({
    description: "http/sse: `false` disables OAuth sign-in; an object describes a " +
      "pre-registered client, or one that signs in without a user (`grantType`: " +
      "`client_credentials`, `jwt-bearer`, `enterprise-managed`); see docs/oauth.md",
  }),
  proxy: z.boolean().default(true).meta({
    description: "Whether other MCP clients may reach this server through Lass's proxy " +
      "(`/mcp/:id`, `lass proxy <id>`); `false` refuses them",
  }),
  holds: z.array(z.string().min(1).max(200)).max(50).optional().meta({
    description: "Methods whose requests Lass's proxy holds before relaying them (e.g. " +
      "`tools/call`, `sampling/createMessage`): each waits for the user to forward (maybe " +
      "edited), reply or drop it",
  }),
  holdTimeoutMs: z.int().min(100).max(3_600_000).default(60_000).meta({
    description: "How long a held request waits for the user before it is forwarded as it is",
  }),
  sampling: z.enum(["ask", "auto", "deny"]).default(CONFIG_DEFAULTS.sampling).meta({
    description: "How sampling requests from this server are handled",
  }),
  roots: z.array(Root).optional().meta({
    description: "Roots offered to the server when it asks (`roots/list`): file URIs, each " +
      "with an optional name. A change is announced to the connected server, without a reconnect",
  }),
  pinning: z.enum(["off", "warn", "block"]).optional().meta({
    description: "Pinning (default `warn`): the server's tools, prompts and resource templates " +
      "are compared with their pins (lass.lock.json beside the config, else the first ones " +
      "seen); `warn` shows a change (`mcp.drift`), `block` also keeps changed tools out of " +
      "chat and from the proxy's clients until accepted, `off` compares nothing",
  }),
  approval: z.strictObject({
    default: ApprovalMode.optional(),
    tools: z.record(z.string(), ApprovalMode).optional(),
  }).optional().meta({ description: "Per-tool approval: `auto` runs, `ask` waits for the user" }),
}).superRefine((server, ctx) => {
  const remote = server.transport === "http" || server.transport === "sse";
  const stdio = server.transport === "stdio";
  const replay = server.transport === "replay";
  if (stdio && !server.command) {
    ctx.addIssue({ code: "custom", path: ["command"], message: "is required for stdio" });
  }
  if (remote && !server.url) {
    ctx.addIssue({ code: "custom", path: ["url"], message: `is required for ${server.transport}` });
  }
  if (replay && !server.cassette) {
    ctx.addIssue({ code: "custom", path: ["cassette"], message: "is required for replay" });
  }
  for (const field of ["command", "args", "env", "inheritEnv", "cwd"] as const) {
    if (!stdio && server[field] !== undefined) {
      ctx.addIssue({ code: "custom", path: [field], message: "applies only to stdio" });
    }
  }
  for (const field of ["url", "headers", "oauth"] as const) {
    if (!remote && server[field] !== undefined) {
      ctx.addIssue({ code: "custom", path: [field], message: "applies only to http and sse" });
    }
  }
  for (const field of ["cassette", "match", "speed"] as const) {
    if (!replay && server[field] !== undefined) {
      ctx.addIssue({ code: "custom", path: [field], message: "applies only to replay" });
    }
  }
});
