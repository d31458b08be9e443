/** The zod schema of `service.json`: the single source of the config's types, JSON Schema and 400 details. */
import { z } from "zod";
import { detailsFromIssues, LassError } from "../errors.ts";
import { hasEnvRef } from "./env_refs.ts";
import { referenceProblems } from "./references.ts";

/** Defaults the schema fills in when a field is absent. */
export const CONFIG_DEFAULTS = {
  version: 1,
  maxSteps: 12,
  timeoutMs: 30_000,
  toolServerWaitMs: 3000,
  sampling: "ask",
  renderToolName: "render_ui",
} as const;

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

const Id = z.string().regex(ID_PATTERN, {
  message: "must be 1-64 letters, digits, '_' or '-', starting with a letter or digit",
});

const Name = z.string().trim().min(1, { message: "must not be empty" });

/** A string that may be a literal, `env:NAME` or contain `${NAME}`; resolved only when used. */
const Secretish = z.string().meta({
  description: "A literal value, `env:NAME` (the whole value from the environment) or a string " +
    "with `${NAME}` references. A missing variable resolves to an empty string.",
});

const StringMap = z.record(z.string(), Secretish);

/** Whether a value is an http(s) URL, or refers to the environment (checked when resolved). */
function isHttpUrlOrRef(value: string): boolean {
  if (hasEnvRef(value)) return true;
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

/** An http or https URL, or an env reference to one. */
const HttpUrl = Secretish.refine(isHttpUrlOrRef, {
  message: "must be an http or https URL (or an env reference)",
});

/** The six provider kinds of a model profile. */
export const PROVIDERS = [
  "hosted-a",
  "hosted-b",
  "hosted-c",
  "cloud-d",
  "local-e",
  "compatible-api",
] as const;

/** A provider kind of a model profile. */
export type Provider = typeof PROVIDERS[number];

/** One `llms[]` record: a model profile. */
export const LlmProfileSchema = z.strictObject({
  id: Id.meta({ description: "Unique id, referenced by workspaces" }),
  name: Name.meta({ description: "Display name" }),
  provider: z.enum(PROVIDERS).meta({
    description: "hosted-a: OpenAI API; hosted-b: Anthropic; hosted-c: Google Gemini; " +
      "cloud-d: Azure OpenAI; local-e: Ollama; compatible-api: any OpenAI-compatible endpoint",
  }),
  model: z.string().min(1, { message: "must not be empty" }).meta({
    description: "Model id (cloud-d: the deployment name)",
  }),
  apiKey: Secretish.optional(),
  baseURL: Secretish.refine((value) => value === "service:demo" || isHttpUrlOrRef(value), {
    message: "must be an http or https URL, an env reference, or service:demo",
  }).optional().meta({
    description: "Required for compatible-api (`service:demo` is the built-in demo model); " +
      "an optional override for the others",
  }),
  headers: StringMap.optional().meta({ description: "Extra HTTP headers" }),
  resourceName: Secretish.optional().meta({ description: "cloud-d: the Azure resource name" }),
  apiVersion: z.string().optional().meta({ description: "cloud-d: API version" }),
  useChatApi: z.boolean().optional().meta({
    description: "hosted-a: use Chat Completions instead of the Responses API",
  }),
  temperature: z.number().min(0).max(2).optional(),
  maxOutputTokens: z.int().min(1).optional(),
  providerOptions: z.record(z.string(), z.unknown()).optional().meta({
    description: "Passed through to the model SDK as provider options",
  }),
}).superRefine((llm, ctx) => {
  if (llm.provider === "compatible-api" && !llm.baseURL) {
    ctx.addIssue({ code: "custom", path: ["baseURL"], message: "is required for compatible-api" });
  }
  if (llm.provider === "cloud-d" && !llm.resourceName && !llm.baseURL) {
    ctx.addIssue({
      code: "custom",
      path: ["resourceName"],
      message: "cloud-d needs resourceName or baseURL",
    });
  }
});

/** How Lass obtains a tool server's OAuth tokens: a user in a browser, or the client alone. */
export const OAUTH_GRANT_TYPES = ["authorization_code", "client_credentials"] as const;

/** How a machine-to-machine client authenticates at the token endpoint. */
export const OAUTH_CLIENT_AUTH_METHODS = [
  "client_secret_basic",
  "client_secret_post",
  "private_key_jwt",
] as const;

/** JWT signing algorithms for `private_key_jwt` (asymmetric keys only). */
export const OAUTH_SIGNING_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
] as const;

/** The three tool-server transports; `http` is Streamable HTTP. */
export const TRANSPORTS = ["stdio", "http", "sse"] as const;

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
  transport: z.enum(TRANSPORTS).meta({ description: "stdio, http (Streamable HTTP) or sse" }),
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
  disabledTools: z.array(z.string()).optional().meta({
    description: "Tools hidden from the model",
  }),
  timeoutMs: z.int().min(100).max(600_000).default(CONFIG_DEFAULTS.timeoutMs).meta({
    description: "Connect timeout in milliseconds",
  }),
  protocolEra: z.enum(["auto", "legacy", "modern"]).default("auto").meta({
    description: "MCP protocol era: `auto` probes 2026-07-28 and falls back to the 2025 " +
      "`initialize`; `legacy` speaks only 2025; `modern` only 2026-07-28",
  }),
  trace: z.boolean().default(true).meta({
    description: "Record every JSON-RPC message to and from the server (the last 2,000, " +
      "`GET /api/mcp/:id/trace`); `false` records nothing. A change applies without a reconnect",
  }),
  oauth: z.union([
    z.boolean(),
    z.strictObject({
      clientId: z.string().optional(),
      clientSecret: Secretish.optional(),
      scopes: z.array(z.string()).optional(),
      grantType: z.enum(OAUTH_GRANT_TYPES).optional().meta({
        description: "`authorization_code` (default): the user signs in in a browser; " +
          "`client_credentials`: machine-to-machine, no user (needs clientId and clientSecret " +
          "or privateKey)",
      }),
      tokenEndpointAuthMethod: z.enum(OAUTH_CLIENT_AUTH_METHODS).optional().meta({
        description: "client_credentials: how the client authenticates at the token endpoint; " +
          "default private_key_jwt with a privateKey, else the secret method the server lists",
      }),
      privateKey: Secretish.refine(hasEnvRef, {
        message: "must be an env reference (env:NAME): a private key is not kept in the config",
      }).optional().meta({
        description: "client_credentials with private_key_jwt: the PEM (PKCS #8) or JWK private " +
          "key, as an env reference",
      }),
      signingAlgorithm: z.enum(OAUTH_SIGNING_ALGORITHMS).optional().meta({
        description: "private_key_jwt: the JWT signing algorithm; default RS256",
      }),
    }),
  ]).optional().meta({
    description: "http/sse: `false` disables OAuth sign-in; an object describes a " +
      "pre-registered client, or a machine-to-machine one (`grantType: client_credentials`)",
  }),
  sampling: z.enum(["ask", "auto", "deny"]).default(CONFIG_DEFAULTS.sampling).meta({
    description: "How sampling requests from this server are handled",
  }),
  roots: z.array(Root).optional().meta({
    description: "Roots offered to the server when it asks (`roots/list`): file URIs, each " +
      "with an optional name. A change is announced to the connected server, without a reconnect",
  }),
  approval: z.strictObject({
    default: ApprovalMode.optional(),
    tools: z.record(z.string(), ApprovalMode).optional(),
  }).optional().meta({ description: "Per-tool approval: `auto` runs, `ask` waits for the user" }),
}).superRefine((server, ctx) => {
  const remote = server.transport !== "stdio";
  if (!remote && !server.command) {
    ctx.addIssue({ code: "custom", path: ["command"], message: "is required for stdio" });
  }
  if (remote && !server.url) {
    ctx.addIssue({ code: "custom", path: ["url"], message: `is required for ${server.transport}` });
  }
  for (const field of ["command", "args", "env", "inheritEnv", "cwd"] as const) {
    if (remote && server[field] !== undefined) {
      ctx.addIssue({ code: "custom", path: [field], message: "applies only to stdio" });
    }
  }
  for (const field of ["url", "headers", "oauth"] as const) {
    if (!remote && server[field] !== undefined) {
      ctx.addIssue({ code: "custom", path: [field], message: "applies only to http and sse" });
    }
  }
  if (typeof server.oauth === "object") checkOAuth(server.oauth, ctx);
});

/** The grant and client-authentication fields of a tool server's `oauth` object. */
function checkOAuth(oauth: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const issue = (field: string, message: string) =>
    ctx.addIssue({ code: "custom", path: ["oauth", field], message });
  if (oauth.grantType !== "client_credentials") {
    for (const field of ["tokenEndpointAuthMethod", "privateKey", "signingAlgorithm"]) {
      if (oauth[field] !== undefined) issue(field, "applies only to grantType client_credentials");
    }
    return;
  }
  if (!oauth.clientId) issue("clientId", "is required for grantType client_credentials");
  const method = oauth.tokenEndpointAuthMethod;
  if (method === "private_key_jwt" && !oauth.privateKey) {
    issue("privateKey", "is required for private_key_jwt");
  } else if (typeof method === "string" && method !== "private_key_jwt" && !oauth.clientSecret) {
    issue("clientSecret", `is required for ${method}`);
  } else if (!oauth.clientSecret && !oauth.privateKey) {
    issue("clientSecret", "client_credentials needs clientSecret or privateKey");
  }
  if (oauth.signingAlgorithm !== undefined && !oauth.privateKey) {
    issue("signingAlgorithm", "applies only with a privateKey");
  }
}

/** One `skills[]` record: an Agent Skill from a folder, a SKILL.md path or inline content. */
export const SkillSchema = z.strictObject({
  id: Id,
  path: z.string().min(1).optional().meta({
    description: "Skill folder or SKILL.md, relative to the config file; `~` is expanded",
  }),
  content: z.string().optional().meta({ description: "Inline SKILL.md, used instead of path" }),
  name: z.string().optional().meta({ description: "Overrides the name in the frontmatter" }),
  description: z.string().optional().meta({
    description: "Overrides the description in the frontmatter",
  }),
}).refine((skill) => (skill.path === undefined) !== (skill.content === undefined), {
  message: "needs exactly one of path or content",
  path: ["path"],
});

/** One `agents[]` record: a remote agent. */
export const AgentSchema = z.strictObject({
  id: Id.meta({ description: "Unique id, referenced by workspaces[].agentId" }),
  name: Name,
  protocol: z.enum(["a2a", "ag-ui"]),
  url: HttpUrl.meta({ description: "a2a: agent card or endpoint; ag-ui: run endpoint" }),
  headers: StringMap.optional(),
  shareTools: z.boolean().optional().meta({
    description: "ag-ui: offer the workspace's MCP tools as frontend tools",
  }),
});

/** The id under which the standard A2UI catalog is listed; configured catalogs cannot take it. */
export const STANDARD_CATALOG_ID = "standard";

/** One `catalogs[]` record: a generative-UI component catalog. */
export const CatalogSchema = z.strictObject({
  id: Id.refine((id) => id !== STANDARD_CATALOG_ID, {
    message: `"${STANDARD_CATALOG_ID}" is the standard catalog's id; choose another`,
  }).meta({ description: "Unique id, referenced by workspaces[].generativeUi.catalogIds" }),
  name: z.string().optional().meta({ description: "Display name override" }),
  path: z.string().min(1).optional().meta({
    description: "Catalog JSON file, relative to the config file",
  }),
  url: HttpUrl.optional().meta({ description: "Catalog JSON over http or https" }),
  catalog: z.record(z.string(), z.unknown()).optional().meta({ description: "Inline catalog" }),
}).refine(
  (catalog) =>
    [catalog.path, catalog.url, catalog.catalog].filter((v) => v !== undefined).length === 1,
  { message: "needs exactly one of path, url or catalog", path: ["path"] },
);

const ComponentNames = z.array(z.string().min(1));

/** The settings of a workspace's render tool (`generativeUi` as an object). */
export const GenerativeUiSettingsSchema = z.strictObject({
  toolName: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).default(CONFIG_DEFAULTS.renderToolName)
    .meta({ description: "Name of the render tool the model sees" }),
  catalogIds: z.array(z.string()).optional().meta({
    description: "Configured catalogs to offer; all of them when absent",
  }),
  standard: z.boolean().default(true).meta({ description: "Include the standard A2UI catalog" }),
  allow: ComponentNames.optional().meta({ description: "Only these component names" }),
  deny: ComponentNames.optional().meta({ description: "Never these component names" }),
  instructions: z.string().optional().meta({ description: "Added to the system prompt" }),
  description: z.string().optional().meta({ description: "The render tool's description" }),
  examples: z.array(z.strictObject({
    prompt: z.string().optional().meta({ description: "What the example answers" }),
    input: z.record(z.string(), z.unknown()).meta({ description: "A render-tool input" }),
  })).optional().meta({
    description: "Example render-tool inputs shown to the model (replace the built-in example)",
  }),
  repair: z.boolean().default(true).meta({
    description: "Repair small mistakes in the model's UI instead of rejecting them",
  }),
  theme: z.looseObject({
    primaryColor: z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: "must be a color like #1a73e8" })
      .optional().meta({ description: "The surface's primary color, #RRGGBB" }),
    iconUrl: z.string().optional().meta({ description: "An icon shown as the agent's" }),
    agentDisplayName: z.string().optional().meta({ description: "The agent's name on surfaces" }),
  }).optional().meta({
    description: "Theme passed into createSurface (A2UI v0.9 theme; other fields pass through)",
  }),
});

/** One `workspaces[]` record. */
export const WorkspaceSchema = z.strictObject({
  id: Id,
  name: Name,
  llmId: z.string().optional().meta({
    description: "Default model; falls back to the first model",
  }),
  agentId: z.string().optional().meta({ description: "Chat with this remote agent instead" }),
  mcpServerIds: z.array(z.string()).default([]).meta({ description: "Enabled tool servers" }),
  skillIds: z.array(z.string()).default([]).meta({ description: "Enabled skills" }),
  systemPrompt: z.string().optional(),
  starterPrompts: z.array(z.string()).optional().meta({ description: "Chips on an empty chat" }),
  maxSteps: z.int().min(1).max(100).default(CONFIG_DEFAULTS.maxSteps),
  toolServerWaitMs: z.int().min(0).max(600_000).default(CONFIG_DEFAULTS.toolServerWaitMs).meta({
    description: "How long a chat turn waits in all for tool servers that are still connecting " +
      "(servers in error or waiting for sign-in are never waited for)",
  }),
  generativeUi: z.union([z.boolean(), GenerativeUiSettingsSchema]).default(true).meta({
    description: "The render tool: on by default, `false` turns it off, an object sets it up",
  }),
  requireApproval: z.boolean().optional().meta({
    description: "Ask before every tool call on a tool server in this workspace",
  }),
});

const ConfigObjectSchema = z.looseObject({
  $schema: z.string().optional(),
  version: z.literal(1, { message: "only config version 1 is supported" }).default(1),
  activeWorkspaceId: z.string().optional().meta({
    description: "The default workspace of chat when workspaceId is omitted",
  }),
  llms: z.array(LlmProfileSchema).default([]),
  mcpServers: z.array(McpServerSchema).default([]),
  skills: z.array(SkillSchema).default([]),
  agents: z.array(AgentSchema).default([]),
  catalogs: z.array(CatalogSchema).default([]),
  workspaces: z.array(WorkspaceSchema).default([]),
});

/** The whole `service.json`. Unknown top-level fields are kept; unknown record fields are errors. */
export const ServiceConfigSchema = ConfigObjectSchema.superRefine(checkReferences).meta({
  title: "Lass service.json",
  description: "Configuration of Lass, the Local Agent Sandbox Service",
});

/** The config as the service uses it: defaults filled in. */
export type ServiceConfig = z.output<typeof ServiceConfigSchema>;
/** The config as written in the file: defaults may be absent. */
export type ServiceConfigInput = z.input<typeof ServiceConfigSchema>;
/** A model profile with defaults filled in. */
export type LlmProfile = z.output<typeof LlmProfileSchema>;
/** A tool-server record with defaults filled in. */
export type McpServerConfig = z.output<typeof McpServerSchema>;
/** A workspace with defaults filled in. */
export type Workspace = z.output<typeof WorkspaceSchema>;

/** Unique ids per array and every cross reference, each problem at its dotted path. */
function checkReferences(config: unknown, ctx: z.RefinementCtx): void {
  for (const problem of referenceProblems(config as Record<string, unknown>)) {
    const path = problem.path.split(".").map((part) => /^\d+$/.test(part) ? Number(part) : part);
    ctx.addIssue({ code: "custom", path, message: problem.message });
  }
}

/** The JSON Schema of `service.json` (the input form: defaults are not required). */
export function configJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ServiceConfigSchema, { io: "input", unrepresentable: "any" });
}

/** Validates a whole config; throws 400 `invalid-config` with every problem's dotted path. */
export function parseConfig(input: unknown): ServiceConfig {
  const parsed = ServiceConfigSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const details = detailsFromIssues(parsed.error.issues);
  // A config that fails its schema is not checked for references by it: list those too.
  if (input !== null && typeof input === "object") {
    const known = new Set(details.map((detail) => `${detail.path}\n${detail.message}`));
    for (const problem of referenceProblems(input as Record<string, unknown>)) {
      if (!known.has(`${problem.path}\n${problem.message}`)) details.push(problem);
    }
  }
  const first = details[0];
  throw new LassError(
    "invalid-config",
    `the config is invalid: ${first.path || "(top level)"}: ${first.message}` +
      (details.length > 1 ? ` (and ${details.length - 1} more)` : ""),
    details,
  );
}
