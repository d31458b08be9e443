/** Opens the parts of a running Lass that hold state: config, events, interactions and sessions. */
import { basename, dirname, join } from "node:path";
import { ApprovalGate } from "./chat/approvals.ts";
import { RunningCalls } from "./chat/running_calls.ts";
import { TurnsInFlight } from "./chat/turns_in_flight.ts";
import { ModelAdmission } from "./chat/model_admission.ts";
import { type EnvLookup, resolveEnvRef } from "./config/env_refs.ts";
import { SCHEMA_FILE_NAME } from "./config/defaults.ts";
import { ConfigStore } from "./config/store.ts";
import { EventBus, type EventBusOptions } from "./events.ts";
import { CatalogRegistry } from "./genui/registry.ts";
import { type FileSystem, removeTempFiles } from "./files.ts";
import { InteractionRegistry } from "./interactions.ts";
import { detectedEnvKeys } from "./llm/presets.ts";
import { type ManagerOptions } from "./mcp/manager/types.ts";
import { ToolServerManager } from "./mcp/manager/manager.ts";
import type { ToolServerProxy } from "./mcp/proxy/create.ts";
import type { RegistryClient, RegistryClientOptions } from "./mcp/registry/client.ts";
import { DEFAULT_REGISTRY_URL } from "../wire/config/field_defaults.ts";
import { TaskFiles } from "./mcp/tasks/files.ts";
import { OAuthSignIn } from "./mcp/oauth/sign_in.ts";
import { PinKeeper } from "./mcp/pinning/keeper.ts";
import { defaultLockPath } from "./mcp/pinning/pin_files.ts";
import { createSampler } from "./mcp/requests/sampling.ts";
import { SessionStore } from "./sessions.ts";
import { ValidatedConfigCache } from "./config/validated_cache.ts";
import { KeptEras } from "./mcp/manager/kept_eras.ts";
import { EvalReportStore } from "./evals/reports.ts";
import { homeDir } from "./skills/paths.ts";
import { SkillRegistry } from "./skills/registry.ts";
import { Telemetry } from "./telemetry/telemetry.ts";

/** Where the service keeps its files and how it reads the environment. */
export interface ServiceOptions {
  configPath: string;
  dataDir: string;
  env: EnvLookup;
  /** Follow edits of the config file on disk; default true. */
  watchConfig?: boolean;
  /**
   * Keep running MCP tasks in the data dir (`tasks/`): closing leaves them running on their
   * servers and the next open follows them again. Default false: closing asks them to cancel.
   */
  keepTasks?: boolean;
  events?: EventBusOptions;
  /** File access; default `node:fs` (loaded on first use). */
  fs?: FileSystem;
  /** Overrides for the tool-server manager (tests pass fakes or short deadlines). */
  mcp?: Partial<
    Pick<
      ManagerOptions,
      "open" | "demoServer" | "callTimeoutMs" | "recentUseMs" | "reconnectDelayMs" | "sampler"
    >
  >;
  /** Overrides for the MCP Registry client (tests pass a clock or a short deadline). */
  registry?: Partial<Pick<RegistryClientOptions, "fetch" | "now" | "timeoutMs">>;
}

/** The stateful parts of a running service, shared by every route. */
export interface Service {
  readonly config: ConfigStore;
  readonly events: EventBus;
  readonly interactions: InteractionRegistry;
  readonly sessions: SessionStore;
  /** The eval reports kept in `<data dir>/evals/reports/`, the newest 100. */
  readonly evalReports: EvalReportStore;
  /** One connection per configured tool server. */
  readonly mcp: ToolServerManager;
  /** The tool servers' pins: the lock file beside the config, the first definitions seen. */
  readonly pins: PinKeeper;
  /** The configured Agent Skills, loaded and kept in step with the config. */
  readonly skills: SkillRegistry;
  /** The standard and configured UI component catalogs, loaded on first use. */
  readonly catalogs: CatalogRegistry;
  /** Which tool calls of chats wait for approval, and the approvals remembered for this process. */
  readonly approvals: ApprovalGate;
  /** The tool calls of chat runs that are running now, which the user may cancel one by one. */
  readonly runningCalls: RunningCalls;
  /** The chat turns running now; closing the service ends them and waits for their saves. */
  readonly turns: TurnsInFlight;
  /** When model runs may start: as many at once as the event loop keeps up with. */
  readonly admission: ModelAdmission;
  /** The OpenTelemetry export of traces, following the config (off: nothing loaded). */
  readonly telemetry: Telemetry;
  readonly env: EnvLookup;
  /** Names of the provider env variables that were set when the service opened. */
  readonly detectedEnv: readonly string[];
  readonly dataDir: string;
  /** Lass's MCP proxy (`/mcp/:id`), made with its first use. */
  proxy(): Promise<ToolServerProxy>;
  /** The client of the config's MCP Registry (`registryUrl`), made with its first use. */
  registry(): Promise<RegistryClient>;
  /** Stops watching and waits until every write in progress is on disk. */
  close(): Promise<void>;
}

/**
 * Removes the temp files of writes that a crash (kill -9) cut short: beside the config only
 * those of the config and its schema file, in the data dir and its subfolders any of Lass's
 * (by their name, see `isTempFileName`). Runs before anything is written.
 */
async function removeLeftoverTempFiles(fs: FileSystem, options: ServiceOptions): Promise<void> {
  const folder = dirname(options.configPath);
  await removeTempFiles(fs, folder, { target: basename(options.configPath) });
  await removeTempFiles(fs, folder, { target: SCHEMA_FILE_NAME });
  await removeTempFiles(fs, options.dataDir, { depth: 2 });
}

/** Opens (and on a first start creates) the config and the data dir. */
export async function openService(options: ServiceOptions): Promise<Service> {
  const fs = options.fs ?? (await import("./files_node.ts")).nodeFileSystem;
  const events = new EventBus(options.events);
  await removeLeftoverTempFiles(fs, options);
  const config = await ConfigStore.open({
    fs,
    path: options.configPath,
    env: options.env,
    events,
    watch: options.watchConfig,
    cache: new ValidatedConfigCache(fs, join(options.dataDir, "cache")),
  });
  // The data dir holds chats and OAuth tokens: private to the user.
  await fs.makeDir(options.dataDir, 0o700);
  const sessions = new SessionStore(join(options.dataDir, "sessions"), fs);
  const turns = new TurnsInFlight();
  const interactions = new InteractionRegistry(events);
  const skills = await SkillRegistry.open({ config, events, fs, home: homeDir(options.env) });
  const pins = new PinKeeper({
    fs,
    lockPath: () => defaultLockPath(config.path),
    dir: join(options.dataDir, "pins"),
    events,
    warn: (serverId, message) =>
      events.emit("mcp.log", { serverId, level: "warning", logger: "lass", message }),
  });
  const mcp = new ToolServerManager({
    config,
    events,
    interactions,
    env: options.env,
    exists: (path) => fs.exists(path),
    sampler: createSampler(config, options.env),
    oauth: new OAuthSignIn({
      fs,
      dir: join(options.dataDir, "oauth"),
      env: options.env,
      // A callback for a server removed during its sign-in stores nothing.
      isConfigured: (id) => config.config.mcpServers.some((server) => server.id === id),
    }),
    ...(options.keepTasks && { taskFiles: new TaskFiles(fs, join(options.dataDir, "tasks")) }),
    keptEras: new KeptEras(fs, join(options.dataDir, "cache")),
    pins,
    ...options.mcp,
  });
  await mcp.restoreTasks();
  const telemetry = await Telemetry.open({ config, env: options.env, events });
  let proxy: Promise<ToolServerProxy> | undefined;
  let registry: Promise<RegistryClient> | undefined;
  return {
    config,
    events,
    interactions,
    sessions,
    evalReports: new EvalReportStore(fs, join(options.dataDir, "evals", "reports")),
    mcp,
    pins,
    skills,
    catalogs: new CatalogRegistry({
      config,
      events,
      fs,
      env: options.env,
      home: homeDir(options.env),
    }),
    approvals: new ApprovalGate({ config, interactions }),
    runningCalls: new RunningCalls(),
    turns,
    admission: new ModelAdmission(),
    telemetry,
    env: options.env,
    detectedEnv: detectedEnvKeys(options.env),
    dataDir: options.dataDir,
    proxy: () =>
      proxy ??= import("./mcp/proxy/create.ts").then(({ createProxy }) =>
        createProxy(mcp, events, config, interactions)
      ),
    registry: () =>
      registry ??= import("./mcp/registry/client.ts").then(({ RegistryClient }) =>
        new RegistryClient({
          registryUrl: () =>
            resolveEnvRef(config.config.registryUrl ?? DEFAULT_REGISTRY_URL, options.env),
          ...options.registry,
        })
      ),
    close: async () => {
      await turns.close();
      skills.close();
      const proxied = await proxy?.catch(() => undefined);
      await Promise.all([config.close(), sessions.close(), mcp.close(), proxied?.close()]);
      // After the turns and tool servers: their last spans are sent.
      await telemetry.close();
      // A connect that ended as the manager closed may still be writing its first pins.
      await pins.idle();
    },
  };
}
