/**
 * Verify: the recorded requests of a cassette sent again to the live server on a fresh connection,
 * and each answer compared with the recorded one (structurally, ignored pointers left out).
 */
import type {
  Cassette,
  CassetteExchange,
  VerifyExchangeResult,
  VerifyReport,
} from "../../../wire/cassette.ts";
import { LassError } from "../../errors.ts";
import type { ToolServerManager } from "../manager/manager.ts";
import { requestKey } from "./canonical.ts";
import { differences } from "./diff.ts";
import { serverCassette } from "./of_server.ts";

/** What a verify run takes besides the cassette. */
export interface VerifyOptions {
  /** JSON pointers into an answer (`/result/content/0/text`, `*` for any segment) not compared. */
  ignore?: readonly string[];
}

/** Methods the connect itself sends again: their answers come from the new connection's lists. */
const LISTED = new Set([
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
]);

/**
 * Verifies server `id` against `cassette`: a new connection (its lists are read again), each
 * recorded tool call, resource read, prompt and completion sent in order, and every exchange
 * compared with its live twin from the wire trace. Needs the server's trace on (`trace: true`).
 */
export async function verifyCassette(
  mcp: ToolServerManager,
  id: string,
  cassette: Cassette,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const started = performance.now();
  const state = mcp.state(id);
  if (state.transport === "replay") {
    throw new LassError(
      "invalid-request",
      `the tool server ${id} is a replay: verify the live server`,
    );
  }
  const since = mcp.trace(id, { limit: 1 }).at(-1)?.seq ?? 0;
  const connected = await mcp.connect(id, { force: true });
  if (connected.status !== "connected") {
    throw new LassError(
      "upstream-error",
      `the tool server ${id} did not connect: ${connected.error ?? connected.status}`,
    );
  }
  const failures = new Map<number, { reason: string }>();
  const durations = new Map<number, number>();
  for (const [index, exchange] of cassette.exchanges.entries()) {
    if (!sendable(exchange)) continue;
    const begun = performance.now();
    try {
      await send(mcp, id, exchange);
    } catch (error) {
      failures.set(index, { reason: (error as Error).message });
    }
    durations.set(index, Math.round(performance.now() - begun));
  }
  const live = serverCassette(mcp, id, { since });
  if (live.exchanges.length === 0) {
    throw new LassError(
      "invalid-request",
      `the wire trace of ${id} is off (trace: false): verify compares what crosses it`,
    );
  }
  const twins = pairExchanges(cassette.exchanges, live.exchanges);
  const ignore = options.ignore ?? [];
  const exchanges = cassette.exchanges.map((exchange, index): VerifyExchangeResult => {
    const base = {
      index,
      method: exchange.request.method,
      ...nameOf(exchange),
      durationMs: durations.get(index) ?? 0,
    };
    if (!sendable(exchange) && !LISTED.has(exchange.request.method)) {
      return { ...base, outcome: "skipped", differences: [] };
    }
    const twin = twins[index];
    if (!twin) {
      const failure = failures.get(index);
      return {
        ...base,
        outcome: "failed",
        differences: [],
        reason: failure?.reason ?? "the live server was not asked this again",
      };
    }
    const found = differences(answerOf(exchange), answerOf(twin), ignore);
    return { ...base, outcome: found.length > 0 ? "drift" : "same", differences: found };
  });
  const count = (outcome: VerifyExchangeResult["outcome"]) =>
    exchanges.filter((exchange) => exchange.outcome === outcome).length;
  return {
    serverId: id,
    ok: count("drift") === 0 && count("failed") === 0,
    exchanges,
    same: count("same"),
    drifted: count("drift"),
    failed: count("failed"),
    skipped: count("skipped"),
    durationMs: Math.round(performance.now() - started),
  };
}

/** Whether verify sends an exchange's request again itself. */
function sendable(exchange: CassetteExchange): boolean {
  return ["tools/call", "resources/read", "prompts/get", "completion/complete"]
    .includes(exchange.request.method);
}

/** Sends a recorded request through the manager (its answer reaches the trace). */
async function send(mcp: ToolServerManager, id: string, exchange: CassetteExchange) {
  const params = (exchange.request.params ?? {}) as Record<string, never>;
  switch (exchange.request.method) {
    case "tools/call":
      return await mcp.callTool(id, params.name, params.arguments ?? {});
    case "resources/read":
      return await mcp.readResource(id, params.uri);
    case "prompts/get":
      return await mcp.getPrompt(id, params.name, params.arguments ?? {});
    case "completion/complete":
      return await mcp.complete(id, { ref: params.ref, argument: params.argument });
  }
}

/** Each recorded exchange's live twin: the next unused live one with the same method and params. */
function pairExchanges(
  recorded: readonly CassetteExchange[],
  live: readonly CassetteExchange[],
): (CassetteExchange | undefined)[] {
  const pool = new Map<string, CassetteExchange[]>();
  for (const exchange of live) {
    const key = requestKey(exchange.request.method, exchange.request.params);
    pool.set(key, [...(pool.get(key) ?? []), exchange]);
  }
  return recorded.map((exchange) => {
    const key = requestKey(exchange.request.method, exchange.request.params);
    const candidates = pool.get(key) ?? [];
    // Lists are read once per connect: every recorded reading compares with the live one.
    return LISTED.has(exchange.request.method) ? candidates[0] : candidates.shift();
  });
}

/** What is compared: the result or the error, as `/result/...` or `/error/...`. */
function answerOf(exchange: CassetteExchange): Record<string, unknown> {
  return exchange.error !== undefined ? { error: exchange.error } : { result: exchange.result };
}

/** The tool, prompt or resource a request names. */
function nameOf(exchange: CassetteExchange): { name?: string } {
  const params = exchange.request.params ?? {};
  const name = params.name ?? params.uri;
  return typeof name === "string" ? { name } : {};
}
