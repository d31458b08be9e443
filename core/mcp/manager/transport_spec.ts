/** From a config record to what the MCP client needs (env references resolved), and connect failures as sentences. */
import { dirname, resolve } from "node:path";
import { DEMO_MARKER } from "../../config/defaults.ts";
import { type EnvLookup, resolveEnvRef, resolveEnvRefs } from "../../config/env_refs.ts";
import { isSecretName, secretValues } from "../../config/secrets.ts";
import type { McpServerConfig } from "../../../wire/config/schema.ts";
import { clip, isNetworkFailure } from "../../errors.ts";
import type { InProcessHandler, TransportSpec } from "../session/types.ts";

/** Where a record's relative paths are resolved and how the demo server is made. */
export interface SpecContext {
  env: EnvLookup;
  configPath: string;
  exists: (path: string) => boolean;
  demoServer: () => Promise<InProcessHandler>;
}

/**
 * The transport of a record: stdio (or the in-process demo server), Streamable HTTP, SSE, or a
 * cassette replayed in process (read again at each connect, relative to the config's folder).
 */
export async function transportSpecOf(
  record: McpServerConfig,
  context: SpecContext,
): Promise<TransportSpec> {
  const { env } = context;
  if (record.transport === "replay") {
    const [{ readCassette }, { createReplayHandler }] = await Promise.all([
      import("../recordings/load.ts"),
      import("../recordings/replay_server.ts"),
    ]);
    const cassette = await readCassette(resolve(dirname(context.configPath), record.cassette!));
    const handler = createReplayHandler(cassette, {
      match: record.match ?? "exact",
      speed: record.speed ?? 1,
    });
    return { kind: "in-process", handler: { connect: () => handler.connect() } };
  }
  if (record.transport === "stdio") {
    if (record.command === DEMO_MARKER) {
      return { kind: "in-process", handler: await context.demoServer() };
    }
    const configDir = dirname(context.configPath);
    const cwd = record.cwd === undefined
      ? undefined
      : resolve(configDir, resolveEnvRef(record.cwd, env));
    if (cwd !== undefined && !context.exists(cwd)) {
      throw new Error(`working directory not found: ${cwd}`);
    }
    return {
      kind: "stdio",
      command: resolveEnvRef(record.command!, env),
      args: resolveEnvRefs(record.args ?? [], env),
      env: { ...inheritedEnv(record, env), ...resolveEnvRefs(record.env ?? {}, env) },
      cwd,
    };
  }
  return {
    kind: record.transport as "http" | "sse",
    url: resolveEnvRef(record.url!, env),
    headers: resolveEnvRefs(record.headers ?? {}, env),
  };
}

/**
 * The variables of Lass's environment a stdio record names in `inheritEnv` (those that are set),
 * and only those: the SDK adds its few safe defaults (`HOME`, `PATH`, ...), and `env` wins.
 */
function inheritedEnv(record: McpServerConfig, env: EnvLookup): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const name of record.inheritEnv ?? []) {
    const value = env(name);
    if (value !== undefined) inherited[name] = value;
  }
  return inherited;
}

/** A connect failure as a sentence, with the tail of the server's stderr where it helps. */
export function describeConnectError(
  record: McpServerConfig,
  error: unknown,
  stderrTail: string[],
): string {
  const message = (error as Error)?.message ?? String(error);
  let text: string;
  if (/^working directory not found/.test(message)) {
    text = message;
  } else if (/ENOENT|not found|No such file/i.test(message) && record.transport === "stdio") {
    text = `command not found: ${record.command}`;
  } else if (/did not offer pinned protocol version/.test(message)) {
    const version = /version (\S+)/.exec(message)?.[1] ?? "2026-07-28";
    text = `no answer with protocol ${version} to server/discover within ${
      record.timeoutMs / 1000
    } s (protocolEra "modern" pins it; a 2025 server needs "auto" or "legacy")`;
  } else if (/timed out/i.test(message)) {
    text = `no answer to initialize within ${record.timeoutMs / 1000} s`;
  } else if (/connection closed/i.test(message)) {
    text = "the server exited before it was ready";
  } else if (/\b401\b|unauthorized/i.test(message) || (error as { code?: unknown })?.code === 401) {
    text = record.oauth === false
      ? "the server requires sign-in (401), and OAuth sign-in is off for it (oauth: false)"
      : "the server requires sign-in (401)";
  } else if (isNetworkFailure(error)) {
    text = `cannot reach ${record.url}`;
  } else {
    text = message;
  }
  const tail = stderrTail.slice(-5).join("\n");
  return clip(tail ? `${text}\nstderr:\n${tail}` : text);
}

/**
 * The secrets of a record, never shown in a message: what its env references resolve to (keys,
 * tokens), its header values, the credentials of its URL and its key-like `env` and `inheritEnv`.
 */
export function secretsOf(record: McpServerConfig, env: EnvLookup): string[] {
  const recordEnv = Object.entries(record.env ?? {});
  return secretValues({
    references: [
      record.url,
      record.command,
      ...(record.args ?? []),
      ...recordEnv.map(([, value]) => value),
    ],
    values: [
      ...Object.values(record.headers ?? {}),
      ...recordEnv.filter(([name]) => isSecretName(name)).map(([, value]) => value),
    ],
    urls: [record.url],
    // Inherited variables named like keys (`GITHUB_TOKEN`) are secrets too; `LANG` is not.
    variables: (record.inheritEnv ?? []).filter(isSecretName),
  }, env);
}

/**
 * The secrets of a record that must not leave Lass in a file (a cassette): those of
 * {@link secretsOf}, every header value, every literal `env` value and its OAuth tokens.
 */
export function exportSecretsOf(
  record: McpServerConfig,
  { env, oauth }: { env: EnvLookup; oauth?: { secrets(record: McpServerConfig): string[] } },
): string[] {
  return [
    ...secretsOf(record, env),
    ...Object.values(record.headers ?? {}),
    ...Object.values(record.env ?? {}).filter((value) => !value.startsWith("env:")),
    ...(oauth?.secrets(record) ?? []),
  ];
}
