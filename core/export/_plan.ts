/** What every export of a workspace starts from: its model, tool servers, instructions and limits, secrets kept out. */
import { dirname, isAbsolute, resolve } from "node:path";
import { DEMO_MARKER } from "../config/defaults.ts";
import type {
  LlmProfile,
  McpServerConfig,
  ServiceConfig,
  Workspace,
} from "../../wire/config/schema.ts";
import type { Provider } from "../../wire/config/llm_profile_schema.ts";
import type { StoredConfig } from "../config/store.ts";
import { LassError } from "../errors.ts";
import { PROVIDER_PRESETS } from "../llm/presets.ts";
import type { LoadedSkill } from "../skills/skill.ts";
import {
  argValues,
  envName,
  EnvVars,
  isLiteral,
  type Piece,
  plainValue,
  secretValue,
  urlValue,
} from "./_env.ts";

/** A command line: the program and its arguments. */
export interface CommandLine {
  command: string;
  args: string[];
}

/** What an export reads from the running service. */
export interface ExportSource {
  config: ServiceConfig;
  /** The config as stored in the file (defaults not filled in). */
  stored: StoredConfig;
  configPath: string;
  /** A loaded skill by record id. */
  skill: (id: string) => LoadedSkill | undefined;
  /** How exported code starts Lass's built-in demo tool server over stdio. */
  demoServer: CommandLine;
}

/** `auto` runs a tool call, `ask` waits for a yes. */
export type ApprovalMode = "ask" | "auto";

/** One tool server of the workspace, as exported code connects to it. */
export interface ServerPlan {
  record: McpServerConfig;
  connection: ServerConnection;
  disabledTools: string[];
  /** Per tool, else `default`; the workspace's `requireApproval` is folded into `default`. */
  approval: { default: ApprovalMode; tools: Record<string, ApprovalMode> };
}

/** Where a tool server is, in exported values. */
export type ServerConnection =
  | {
    transport: "stdio";
    command: Piece[];
    args: Piece[][];
    env: [string, Piece[]][];
    cwd?: Piece[];
    /** Lass's built-in demo server, started through Lass's CLI. */
    demo: boolean;
  }
  | { transport: "http" | "sse"; url: Piece[]; headers: [string, Piece[]][] };

/** The model of the workspace, in exported values. */
export interface ModelPlan {
  /** The profile, absent when the config has none. */
  profile?: LlmProfile;
  provider: Provider;
  model: string;
  /**
   * The built-in demo model (or no profile at all): exported as an OpenAI-compatible endpoint
   * read from `OPENAI_COMPATIBLE_BASE_URL`, with a placeholder default.
   */
  placeholder: boolean;
  /** The key from the profile; absent: read from `apiKeyEnv`. */
  apiKey?: Piece[];
  /** Variables the provider's key is read from when the profile gives none, in order. */
  apiKeyEnv: string[];
  baseURL?: Piece[];
  headers: [string, Piece[]][];
  resourceName?: Piece[];
}

/** Everything a code export of one workspace needs. */
export interface WorkspacePlan {
  workspace: Workspace;
  model: ModelPlan;
  servers: ServerPlan[];
  /** The system prompt, with the enabled skills appended. */
  instructions: string;
  maxSteps: number;
  /** What did not carry over, as sentences. */
  notes: string[];
  vars: EnvVars;
}

/** The variables the demo model's placeholder reads. */
export const PLACEHOLDER_ENV = {
  baseURL: "OPENAI_COMPATIBLE_BASE_URL",
  model: "OPENAI_COMPATIBLE_MODEL",
  apiKey: "OPENAI_COMPATIBLE_API_KEY",
} as const;

/** The model id a placeholder model uses when `OPENAI_COMPATIBLE_MODEL` is not set. */
export const PLACEHOLDER_MODEL = "llama3.2";

/** The base URL a placeholder model uses when `OPENAI_COMPATIBLE_BASE_URL` is not set (Ollama's). */
export const PLACEHOLDER_BASE_URL = "http://localhost:11434/v1";

/** The workspace with this id; 404 `not-found` otherwise. */
export function findWorkspace(config: ServiceConfig, id: string): Workspace {
  const workspace = config.workspaces.find((candidate) => candidate.id === id);
  if (!workspace) throw new LassError("not-found", `no workspace has id ${id}`);
  return workspace;
}

/** The profile chat would use in this workspace: its own, else the first. */
export function profileOf(config: ServiceConfig, workspace: Workspace): LlmProfile | undefined {
  return workspace.llmId === undefined
    ? config.llms[0]
    : config.llms.find((llm) => llm.id === workspace.llmId);
}

/** Builds the plan of a code export (sdk-a, graph-a) or of a tool-server list (mcp-json). */
export function planWorkspace(source: ExportSource, workspaceId: string): WorkspacePlan {
  const workspace = findWorkspace(source.config, workspaceId);
  const vars = new EnvVars();
  const notes: string[] = [];
  const profile = profileOf(source.config, workspace);
  if (workspace.agentId !== undefined) {
    notes.push(
      `The workspace chats with the remote agent ${workspace.agentId} in Lass; the code ` +
        `uses ${profile ? `the model profile ${profile.id}` : "a placeholder model"} instead.`,
    );
  }
  const model = modelPlan(profile, vars, notes);
  const servers = planServers(source, workspace, vars);
  for (const { record } of servers) {
    if (typeof record.oauth === "object") {
      notes.push(
        `The tool server ${record.id} signs in with OAuth in Lass; the code sends only its ` +
          "configured headers.",
      );
    }
  }
  if (workspace.generativeUi !== false) {
    notes.push("The render tool (generative UI) belongs to Lass and is not exported.");
  }
  const skills = skillsText(source, workspace, notes);
  const instructions = [workspace.systemPrompt ?? "", skills].filter((part) => part.trim() !== "")
    .join("\n\n");
  return { workspace, model, servers, instructions, maxSteps: workspace.maxSteps, notes, vars };
}

function modelPlan(profile: LlmProfile | undefined, vars: EnvVars, notes: string[]): ModelPlan {
  if (!profile || (profile.provider === "compatible-api" && profile.baseURL === DEMO_MARKER)) {
    notes.push(
      profile
        ? "Lass's demo model answers only inside Lass; the code calls an OpenAI-compatible " +
          `endpoint instead: set ${PLACEHOLDER_ENV.baseURL} (default ${PLACEHOLDER_BASE_URL}) ` +
          `and ${PLACEHOLDER_ENV.model}.`
        : "The config has no model profile; the code calls an OpenAI-compatible endpoint: " +
          `set ${PLACEHOLDER_ENV.baseURL} and ${PLACEHOLDER_ENV.model}.`,
    );
    vars.reference(PLACEHOLDER_ENV.baseURL, "base URL of an OpenAI-compatible endpoint");
    vars.reference(PLACEHOLDER_ENV.model, "model id at that endpoint");
    vars.reference(PLACEHOLDER_ENV.apiKey, "API key of that endpoint, if it needs one");
    return {
      profile,
      provider: "compatible-api",
      model: PLACEHOLDER_MODEL,
      placeholder: true,
      apiKeyEnv: [],
      headers: [],
    };
  }
  const label = `model profile "${profile.name}"`;
  const preset = PROVIDER_PRESETS[profile.provider];
  const apiKey = profile.apiKey === undefined ? undefined : secretValue(profile.apiKey, vars, {
    preferred: preset.keyEnv?.[0] ?? envName(profile.id, "API_KEY"),
    description: `API key of the ${label}`,
  });
  const apiKeyEnv = apiKey ? [] : preset.keyEnv ?? [];
  for (const name of apiKeyEnv) vars.reference(name, `API key of the ${label}`);
  return {
    profile,
    provider: profile.provider,
    model: profile.model,
    placeholder: false,
    apiKey,
    apiKeyEnv,
    baseURL: profile.baseURL === undefined ? undefined : urlValue(profile.baseURL, vars, {
      preferred: envName(profile.id, "BASE_URL"),
      description: `base URL of the ${label}`,
    }),
    headers: secretMap(profile.headers, vars, { prefix: profile.id, label, kind: "header" }),
    resourceName: profile.resourceName === undefined
      ? undefined
      : plainValue(profile.resourceName, vars, `Azure resource name of the ${label}`),
  };
}

/** Header or env values as secrets, each literal named `<PREFIX>_<HEADER>` or `<ENV_NAME>`. */
export function secretMap(
  map: Record<string, string> | undefined,
  vars: EnvVars,
  options: { prefix: string; label: string; kind: "header" | "env" },
): [string, Piece[]][] {
  return Object.entries(map ?? {}).map(([key, value]) => [
    key,
    secretValue(value, vars, {
      // An env value keeps its own name; a header is named after its owner too.
      preferred: options.kind === "env" ? envName(key) : envName(options.prefix, key),
      description: `${options.kind} ${key} of the ${options.label}`,
    }),
  ]);
}

/** The workspace's tool servers, in its order; secrets become variables in `vars`. */
export function planServers(
  source: ExportSource,
  workspace: Workspace,
  vars: EnvVars,
): ServerPlan[] {
  return workspace.mcpServerIds.flatMap((id) => {
    const record = source.config.mcpServers.find((server) => server.id === id);
    return record ? [serverPlan(record, workspace, { source, vars })] : [];
  });
}

interface ServerContext {
  source: ExportSource;
  vars: EnvVars;
}

function serverPlan(
  record: McpServerConfig,
  workspace: Workspace,
  context: ServerContext,
): ServerPlan {
  const explicit = record.approval?.tools ?? {};
  const fallback = workspace.requireApproval ? "ask" : record.approval?.default ?? "auto";
  return {
    record,
    connection: connectionOf(record, context),
    disabledTools: record.disabledTools ?? [],
    approval: { default: fallback, tools: { ...explicit } },
  };
}

/** Where a tool server is: the demo server as Lass's CLI, secrets as variables. */
function connectionOf(record: McpServerConfig, context: ServerContext): ServerConnection {
  const { vars, source } = context;
  const label = `tool server "${record.name}"`;
  if (record.transport === "replay") return replayConnection(record, source);
  if (record.transport !== "stdio") {
    return {
      transport: record.transport,
      url: urlValue(record.url!, vars, {
        preferred: envName(record.id, "URL"),
        description: `URL of the ${label}`,
      }),
      headers: secretMap(record.headers, vars, { prefix: record.id, label, kind: "header" }),
    };
  }
  if (record.command === DEMO_MARKER) {
    const { command, args } = source.demoServer;
    return {
      transport: "stdio",
      command: [command],
      args: args.map((arg) => [arg]),
      env: [],
      demo: true,
    };
  }
  const plain = (value: string) => plainValue(value, vars, `used by the ${label}`);
  let cwd: Piece[] | undefined;
  if (record.cwd !== undefined) {
    cwd = plain(record.cwd);
    // Lass reads a relative folder against the config file's folder.
    if (isLiteral(cwd) && !isAbsolute(record.cwd)) {
      cwd = [resolve(dirname(source.configPath), record.cwd)];
    }
  }
  return {
    transport: "stdio",
    command: plain(record.command!),
    args: argValues(record.args ?? [], vars, { prefix: record.id, label }),
    env: secretMap(record.env, vars, { prefix: record.id, label, kind: "env" }),
    cwd,
    demo: false,
  };
}

/**
 * A replayed cassette, served over stdio by Lass's CLI (`lass replay <cassette>`) with the
 * demo server's command line, allowed to read the cassette alone.
 */
function replayConnection(record: McpServerConfig, source: ExportSource): ServerConnection {
  const cassette = resolve(dirname(source.configPath), record.cassette!);
  const { command, args } = source.demoServer;
  const base = args.at(-1) === "demo-server" ? args.slice(0, -1) : [...args];
  const noPrompt = base.indexOf("--no-prompt");
  if (noPrompt >= 0) base.splice(noPrompt + 1, 0, `--allow-read=${cassette}`);
  const options = [
    ...(record.match ? ["--match", record.match] : []),
    ...(record.speed !== undefined ? ["--speed", String(record.speed)] : []),
  ];
  return {
    transport: "stdio",
    command: [command],
    args: [...base, "replay", ...options, cassette].map((arg) => [arg]),
    env: [],
    demo: false,
  };
}

/** The enabled skills as system-prompt text: each one's name, description and instructions. */
function skillsText(source: ExportSource, workspace: Workspace, notes: string[]): string {
  const sections: string[] = [];
  for (const id of workspace.skillIds) {
    const skill = source.skill(id);
    if (!skill || skill.errors.length > 0) {
      notes.push(`The skill ${id} could not be loaded and is not exported.`);
      continue;
    }
    if (skill.files.length > 0) {
      notes.push(
        `The skill ${skill.name} bundles files (in ${skill.root}); only its SKILL.md text is ` +
          "exported.",
      );
    }
    sections.push(`## Skill: ${skill.name}\n\n${skill.description}\n\n${skill.body}`.trim());
  }
  if (sections.length === 0) return "";
  return [
    "# Skills",
    "",
    "Follow a skill's instructions when a task matches its description.",
    "",
    sections.join("\n\n"),
  ].join("\n");
}
