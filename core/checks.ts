/**
 * `lass check`: connects the tool servers of a workspace (or of every workspace), checks what
 * they list against what model providers accept (`mcp/tool_checks.ts`), and tests the model
 * profiles the workspaces use, as `POST /api/llm/test` does. With a lock file (or when one is to
 * be written) it compares what the servers offer with their pins (`mcp/pinning/lock_check.ts`).
 */
import { basename } from "node:path";
import type { LlmProfile, ServiceConfig } from "../wire/config/schema.ts";
import type { Service } from "./service.ts";
import type { ToolServerState } from "../wire/tool_servers.ts";
import { connectWithin } from "./mcp/manager/connect_within.ts";
import { type CheckProblem, checkServer } from "./mcp/tool_checks.ts";
import {
  type LockReport,
  type LockRequest,
  pinProblems,
  type ServerPins,
} from "./mcp/pinning/lock_check.ts";
import { defaultLockPath } from "./mcp/pinning/pin_files.ts";
import { workspaceFor } from "./config/workspaces.ts";

/** One tool server's result. */
export interface ServerCheck {
  id: string;
  name: string;
  status: ToolServerState["status"];
  era?: ToolServerState["era"];
  protocolVersion?: string;
  tools: number;
  prompts: number;
  resources: number;
  durationMs: number;
  problems: CheckProblem[];
  /** Its pins, when a lock file is compared or written (not for `pinning: "off"`). */
  pins?: ServerPins;
}

/** One model profile's result (its `llm/test`). */
export interface ModelCheck {
  id: string;
  name: string;
  provider: string;
  model: string;
  ok: boolean;
  latencyMs: number;
  problems: CheckProblem[];
}

/** The whole report; `ok` is false when any problem is an error. */
export interface CheckReport {
  workspaces: string[];
  servers: ServerCheck[];
  models: ModelCheck[];
  /** The lock file compared or written; absent when there is none and none was asked for. */
  lock?: { path: string; written: boolean };
  errors: number;
  warnings: number;
  ok: boolean;
}

/** What to check: one workspace (default the active one) or every workspace. */
export type CheckScope = { workspaceId?: string } | { all: true };

/** The workspaces in scope; 404 `not-found` for an unknown id. */
function workspacesOf(config: ServiceConfig, scope: CheckScope): ServiceConfig["workspaces"] {
  if ("all" in scope) return config.workspaces;
  return [workspaceFor(config, scope.workspaceId)];
}

/** The model profile a workspace chats with (as `POST /api/chat` picks it); none for an agent. */
function profileOf(
  config: ServiceConfig,
  workspace: ServiceConfig["workspaces"][number],
): LlmProfile | undefined {
  if (workspace.agentId) return undefined;
  return workspace.llmId
    ? config.llms.find((profile) => profile.id === workspace.llmId)
    : config.llms[0];
}

/** Connects one server, waiting at most its connect timeout (and a little for the process). */
async function checkOneServer(service: Service, id: string): Promise<ServerCheck> {
  const started = performance.now();
  const record = service.config.config.mcpServers.find((server) => server.id === id)!;
  await connectWithin(service.mcp, id, record.timeoutMs);
  const state = service.mcp.state(id);
  const waited = Math.round((performance.now() - started) / 1000);
  const settled: ToolServerState = state.status === "connecting"
    ? { ...state, status: "error", error: `still connecting after ${waited} s` }
    : state;
  return {
    id,
    name: record.name,
    status: settled.status,
    ...(settled.era && { era: settled.era }),
    ...(settled.protocolVersion && { protocolVersion: settled.protocolVersion }),
    tools: settled.tools.length,
    prompts: settled.prompts.length,
    resources: settled.resources.length + settled.resourceTemplates.length,
    durationMs: Math.round(performance.now() - started),
    problems: checkServer(settled),
  };
}

/** Tests one model profile with a tiny generation. */
async function checkOneModel(service: Service, profile: LlmProfile): Promise<ModelCheck> {
  const { testProfile } = await import("./llm/probe.ts");
  const result = await testProfile(profile, service.env);
  return {
    id: profile.id,
    name: profile.name,
    provider: profile.provider,
    model: profile.model,
    ok: result.ok,
    latencyMs: result.latencyMs,
    problems: result.ok
      ? []
      : [{ severity: "error", subject: "llm/test", message: result.error ?? "the test failed" }],
  };
}

/** Options of {@link runCheck}. */
export interface CheckOptions {
  /** The lock file and what to do with it; default: compare with `lass.lock.json` if it exists. */
  lock?: LockRequest;
}

/** Adds each connected server's pins (and their problems) from the lock file's report. */
async function withPins(
  service: Service,
  servers: ServerCheck[],
  request: LockRequest,
): Promise<LockReport | undefined> {
  const records = service.config.config.mcpServers;
  const candidates = servers.map((server) => ({
    state: service.mcp.state(server.id),
    pinning: records.find((record) => record.id === server.id)?.pinning,
  }));
  const report = await service.pins.checkLock(request, candidates);
  for (const server of servers) {
    const pins = report?.servers[server.id];
    if (!pins) continue;
    server.pins = pins;
    server.problems.push(...pinProblems(pins, basename(request.path)));
  }
  return report;
}

/** Runs the check; every server and model is tried, whatever the others do. */
export async function runCheck(
  service: Service,
  scope: CheckScope,
  options: CheckOptions = {},
): Promise<CheckReport> {
  const config = service.config.config;
  const workspaces = workspacesOf(config, scope);
  const serverIds = [...new Set(workspaces.flatMap((workspace) => workspace.mcpServerIds))];
  const profiles = new Map<string, LlmProfile>();
  for (const workspace of workspaces) {
    const profile = profileOf(config, workspace);
    if (profile) profiles.set(profile.id, profile);
  }
  const [servers, models] = await Promise.all([
    Promise.all(serverIds.map((id) => checkOneServer(service, id))),
    Promise.all([...profiles.values()].map((profile) => checkOneModel(service, profile))),
  ]);
  const lock = await withPins(
    service,
    servers,
    options.lock ?? { path: defaultLockPath(service.config.path), create: false, update: false },
  );
  const problems = [...servers, ...models].flatMap((item) => item.problems);
  const errors = problems.filter((problem) => problem.severity === "error").length;
  return {
    workspaces: workspaces.map((workspace) => workspace.id),
    servers,
    models,
    ...(lock && { lock: { path: lock.path, written: lock.written } }),
    errors,
    warnings: problems.length - errors,
    ok: errors === 0,
  };
}
