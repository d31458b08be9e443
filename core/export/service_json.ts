/** The `service` export: a standalone `service.json` with one workspace and the records it refers to, secrets as env references. */
import { dirname, isAbsolute, resolve } from "node:path";
import { SCHEMA_FILE_NAME } from "../config/defaults.ts";
import { parseConfig } from "../config/parse.ts";
import type { Provider } from "../../wire/config/llm_profile_schema.ts";
import { formatConfig, type StoredConfig } from "../config/store.ts";
import type { LassError } from "../errors.ts";
import { PROVIDER_PRESETS } from "../llm/presets.ts";
import {
  argValues,
  braceNotation,
  configNotation,
  envName,
  EnvVars,
  secretValue,
  urlValue,
} from "./_env.ts";
import type { ExportResult } from "../../wire/export.ts";
import { type ExportSource, findWorkspace, profileOf } from "./_plan.ts";

type Json = Record<string, unknown>;

/** The variable a literal becomes, and what it is for. */
interface VariableName {
  preferred: string;
  description: string;
}

/** The stored records of one array whose ids are in `ids`, in the order of `ids`. */
function recordsOf(stored: StoredConfig, field: string, ids: readonly string[]): Json[] {
  const records = (Array.isArray(stored[field]) ? stored[field] : []) as Json[];
  return ids.flatMap((id) => records.filter((record) => record.id === id).slice(0, 1))
    .map((record) => structuredClone(record));
}

/** Rewrites literal secrets and relative paths of the records, in place. */
class Rewriter {
  readonly vars = new EnvVars();
  readonly #baseDir: string;

  constructor(configPath: string) {
    this.#baseDir = dirname(configPath);
  }

  /** A secret field: a literal becomes `env:NAME` (or `${NAME}` after an auth scheme). */
  secret(record: Json, field: string, name: VariableName): void {
    if (typeof record[field] !== "string") return;
    record[field] = configNotation(secretValue(record[field] as string, this.vars, name));
  }

  /** A map of secrets (headers, env): each literal value its own variable. */
  secretMap(record: Json, field: "headers" | "env", owner: { id: string; label: string }): void {
    const map = record[field];
    if (map === null || typeof map !== "object") return;
    const kind = field === "env" ? "env" : "header";
    for (const key of Object.keys(map)) {
      // An env value keeps its own name; a header is named after its owner too.
      const name = field === "env" ? envName(key) : envName(owner.id, key);
      this.secret(map as Json, key, {
        preferred: name,
        description: `${kind} ${key} of the ${owner.label}`,
      });
    }
  }

  /** A URL: one with credentials in it becomes a variable. */
  url(record: Json, field: string, name: VariableName): void {
    if (typeof record[field] !== "string") return;
    record[field] = configNotation(urlValue(record[field] as string, this.vars, name));
  }

  /** A path relative to the config file's folder becomes absolute (`~` and references stay). */
  path(record: Json, field: string): void {
    const value = record[field];
    if (typeof value !== "string" || isAbsolute(value) || /^~([/\\]|$)|\$\{|^env:/.test(value)) {
      return;
    }
    record[field] = resolve(this.#baseDir, value);
  }
}

function rewriteLlm(llm: Json, rewrite: Rewriter): void {
  const id = String(llm.id);
  const label = `model profile "${llm.name}"`;
  const preset = PROVIDER_PRESETS[llm.provider as Provider];
  const keyName = preset?.keyEnv?.[0] ?? envName(id, "API_KEY");
  rewrite.secret(llm, "apiKey", { preferred: keyName, description: `API key of the ${label}` });
  rewrite.url(llm, "baseURL", {
    preferred: envName(id, "BASE_URL"),
    description: `base URL of the ${label}`,
  });
  rewrite.secretMap(llm, "headers", { id, label });
}

function rewriteServer(server: Json, rewrite: Rewriter): void {
  const id = String(server.id);
  const label = `tool server "${server.name}"`;
  rewrite.url(server, "url", { preferred: envName(id, "URL"), description: `URL of the ${label}` });
  rewrite.secretMap(server, "headers", { id, label });
  if (Array.isArray(server.args)) {
    server.args = argValues(server.args as string[], rewrite.vars, { prefix: id, label })
      .map(braceNotation);
  }
  rewrite.secretMap(server, "env", { id, label });
  rewrite.path(server, "cwd");
  rewrite.path(server, "cassette");
  const oauth = server.oauth;
  if (oauth !== null && typeof oauth === "object") {
    const copy = { ...oauth as Json };
    rewrite.secret(copy, "clientSecret", {
      preferred: envName(id, "CLIENT_SECRET"),
      description: `OAuth client secret of the ${label}`,
    });
    server.oauth = copy;
  }
}

function rewriteAgent(agent: Json, rewrite: Rewriter): void {
  const id = String(agent.id);
  const label = `remote agent "${agent.name}"`;
  rewrite.url(agent, "url", { preferred: envName(id, "URL"), description: `URL of the ${label}` });
  rewrite.secretMap(agent, "headers", { id, label });
}

/** Generates a `service.json` that serves just this workspace, valid against Lass's schema. */
export function generateServiceJson(source: ExportSource, workspaceId: string): ExportResult {
  const workspace = findWorkspace(source.config, workspaceId);
  const { stored } = source;
  const profile = profileOf(source.config, workspace);
  const generativeUi = workspace.generativeUi;
  const catalogIds = typeof generativeUi === "object" ? generativeUi.catalogIds ?? [] : [];
  const rewrite = new Rewriter(source.configPath);
  const llms = recordsOf(stored, "llms", profile ? [profile.id] : []);
  const mcpServers = recordsOf(stored, "mcpServers", workspace.mcpServerIds);
  const skills = recordsOf(stored, "skills", workspace.skillIds);
  const agents = recordsOf(stored, "agents", workspace.agentId ? [workspace.agentId] : []);
  const catalogs = recordsOf(stored, "catalogs", catalogIds);
  for (const llm of llms) rewriteLlm(llm, rewrite);
  for (const server of mcpServers) rewriteServer(server, rewrite);
  for (const agent of agents) rewriteAgent(agent, rewrite);
  for (const skill of skills) rewrite.path(skill, "path");
  for (const catalog of catalogs) {
    rewrite.path(catalog, "path");
    rewrite.url(catalog, "url", {
      preferred: envName(String(catalog.id), "URL"),
      description: `URL of the catalog ${catalog.id}`,
    });
  }
  const env = rewrite.vars.list();
  const missing = env.filter((variable) => variable.replacesLiteral).map((v) => v.name);
  const config: Json = {
    $schema: `./${SCHEMA_FILE_NAME}`,
    ...(missing.length > 0 && {
      $comment: `Exported from Lass without its literal secrets: set ${missing.join(", ")} ` +
        "in the environment before starting.",
    }),
    version: 1,
    activeWorkspaceId: workspace.id,
    llms,
    mcpServers,
    skills,
    agents,
    catalogs,
    workspaces: recordsOf(stored, "workspaces", [workspace.id]),
  };
  try {
    parseConfig(config);
  } catch (error) {
    // A bug of the export, not of the request: answer 500, never an invalid file.
    throw new Error(`the exported config is not valid: ${(error as LassError).message}`);
  }
  return {
    code: formatConfig(config),
    filename: "service.json",
    dependencies: {},
    env,
    notes: profile && workspace.llmId === undefined
      ? [`The workspace has no llmId; its model is the first profile, ${profile.id}, as in Lass.`]
      : [],
  };
}
