/** Opening one tool server: its transport, the session in the right era, and its lists as a state. */
import type { EnvLookup } from "../../config/env_refs.ts";
import type { McpServerConfig } from "../../../wire/config/schema.ts";
import { clip } from "../../errors.ts";
import type {
  InProcessHandler,
  McpSession,
  SessionHandlers,
  SessionOpener,
} from "../session/types.ts";
import { connectionKey, type Entry, newEntry } from "./entry.ts";
import type { OAuthSignIn } from "../oauth/sign_in.ts";
import type { KeptEras } from "./kept_eras.ts";
import type { ServerAuthProvider } from "../oauth/provider.ts";
import { type ConnectionState, type ToolServerState } from "../../../wire/tool_servers.ts";
import { emptyState, toolInfo } from "./state.ts";
import { describeConnectError, transportSpecOf } from "./transport_spec.ts";

/** What opening a server needs from the manager. */
export interface EstablishContext {
  env: EnvLookup;
  configPath: string;
  exists: (path: string) => boolean;
  demoServer: () => Promise<InProcessHandler>;
  open: SessionOpener;
  oauth?: OAuthSignIn;
  handlers: SessionHandlers;
  /** The server asked for sign-in while connected (a failed refresh, a step-up). */
  signInRequired: (authUrl: string) => void;
  /** A warning for the server's log. */
  warn: (message: string) => void;
  /** Takes the record's secrets out of a text. */
  scrub: (text: string) => string;
  /** The era verdicts of `auto` kept from earlier starts. */
  keptEras?: KeptEras;
}

/** An opened server: the session and the state that reports it. */
export interface Established {
  session?: McpSession;
  state: ConnectionState;
}

/**
 * Connects a record and reads what it offers. Never throws: a server that fails gives a state
 * saying why (`error`, or `needs-auth` with the sign-in URL). `current()` says whether the
 * attempt still counts; a stale attempt closes its session and reports nothing.
 */
export async function establish(
  entry: Entry,
  context: EstablishContext,
  current: () => boolean,
): Promise<Established | undefined> {
  const record = entry.record;
  let auth: ServerAuthProvider | undefined;
  let session: McpSession | undefined;
  try {
    let spec = await transportSpecOf(record, {
      env: context.env,
      configPath: context.configPath,
      exists: context.exists,
      demoServer: context.demoServer,
    });
    if (spec.kind === "http" || spec.kind === "sse") {
      auth = context.oauth?.forSession(record, context.signInRequired);
      if (auth) spec = { ...spec, auth: auth.sessionAuth };
    }
    const key = connectionKey(record);
    const prior = entry.verdict?.key === key ? entry.verdict.verdict : undefined;
    const options = {
      timeoutMs: record.timeoutMs,
      era: record.protocolEra,
      ...(entry.logLevel && { logLevel: entry.logLevel }),
    };
    // Under `auto`, a stdio server whose era an earlier start kept opens in that era at once:
    // its probe would be a whole extra process start (over HTTP it is one request, left as is).
    const keeps = (record.protocolEra ?? "auto") === "auto" && spec.kind === "stdio";
    const kept = keeps && !prior ? await context.keptEras?.get(record.id, key) : undefined;
    let probed = !kept;
    try {
      session = await context.open(spec, context.handlers, {
        ...options,
        ...(kept && { era: kept, probeInPlace: true }),
        prior,
      });
    } catch (error) {
      // A kept verdict may be stale (the server changed): probe again once.
      if (!prior && !kept) throw error;
      entry.verdict = undefined;
      if (kept) context.keptEras?.keep(record.id, key, undefined);
      session = await context.open(spec, context.handlers, options);
      probed = true;
    }
    entry.verdict = { key, verdict: session.verdict };
    if (keeps && probed) context.keptEras?.keep(record.id, key, session.verdict.kind);
    if (!current()) {
      await session.close();
      return undefined;
    }
    entry.session = session;
    // The lists are part of the connect: `timeoutMs` bounds them too. Tools must list; a
    // server whose prompts or resources fail to list still connects, and the log says why.
    const deadline = record.timeoutMs;
    const optional = <T>(what: string, list: Promise<T[]>) =>
      list.catch((error) => {
        context.warn(`listing ${what} failed: ${(error as Error).message}`);
        return [] as T[];
      });
    const [tools, prompts, resources, resourceTemplates] = await Promise.all([
      session.listTools(deadline),
      optional("prompts", session.listPrompts(deadline)),
      optional("resources", session.listResources(deadline)),
      optional("resource templates", session.listResourceTemplates(deadline)),
    ]);
    if (!current()) return undefined;
    const disabled = record.disabledTools ?? [];
    return {
      session,
      state: {
        ...emptyState(record),
        status: "connected",
        serverInfo: session.serverInfo,
        capabilities: session.capabilities,
        instructions: session.instructions,
        era: session.era,
        ...(session.protocolVersion && { protocolVersion: session.protocolVersion }),
        tools: tools.map((tool) => toolInfo(record.id, tool, disabled)),
        prompts,
        resources,
        resourceTemplates,
        connectedAt: new Date().toISOString(),
      },
    };
  } catch (error) {
    if (entry.session === session) entry.session = undefined;
    await session?.close().catch(() => {});
    if (!current()) return undefined;
    if (auth?.authUrl) {
      return { state: { ...emptyState(record), status: "needs-auth", authUrl: auth.authUrl } };
    }
    const reason = auth?.authRunning
      ? clip(
        `the server requires sign-in, and OAuth sign-in failed: ${
          (error as Error)?.message ?? error
        }`,
      )
      : describeConnectError(record, error, entry.stderrTail);
    if (auth?.authRunning) context.oauth?.traces.failed(record.id, context.scrub(reason));
    return { state: { ...emptyState(record), status: "error", error: context.scrub(reason) } };
  }
}

/**
 * Connects a draft record (not configured), reads what it offers, closes it again, and says how
 * long the connect took. Never throws for a server that fails: the state says why.
 */
export async function establishDraft(
  record: McpServerConfig,
  contextOf: (entry: Entry) => EstablishContext,
  open: () => boolean,
): Promise<ToolServerState & { latencyMs: number }> {
  const entry = newEntry(record);
  entry.generation = 1;
  const started = performance.now();
  const opened = await establish(entry, contextOf(entry), () => entry.generation === 1 && open());
  const latencyMs = Math.round(performance.now() - started);
  entry.generation++;
  await entry.session?.close().catch(() => {});
  return { ...(opened?.state ?? entry.state), subscriptions: [], latencyMs };
}

/** Reads one list again (after a list-changed notification): the part of the state it changes. */
export async function readList(
  session: McpSession,
  record: McpServerConfig,
  kind: "tools" | "prompts" | "resources",
): Promise<Partial<ConnectionState>> {
  if (kind === "tools") {
    const tools = await session.listTools();
    return { tools: tools.map((tool) => toolInfo(record.id, tool, record.disabledTools ?? [])) };
  }
  if (kind === "prompts") return { prompts: await session.listPrompts() };
  const [resources, resourceTemplates] = await Promise.all([
    session.listResources(),
    session.listResourceTemplates(),
  ]);
  return { resources, resourceTemplates };
}
