/** The contract between a chat run and a remote-agent adapter (A2A, AG-UI). */
import type { ModelMessage } from "ai";
import type { EnvLookup } from "../config/env_refs.ts";
import type { ServiceConfig } from "../../wire/config/schema.ts";
import type { TurnChunk } from "../chat/types.ts";
import type { ChatUsage } from "../../wire/usage.ts";
import type { RunTools } from "../chat/tools.ts";

/** An `agents[]` record. */
export type AgentConfig = ServiceConfig["agents"][number];

/** What an adapter gets for one chat turn. */
export interface AgentTurnInput {
  agent: AgentConfig;
  /** The full history of the turn, the new user message last. */
  messages: ModelMessage[];
  runId: string;
  /** Aborted when the client goes away: stop the remote run and return. */
  signal: AbortSignal;
  /** Resolves env references (`env:NAME`, `${NAME}`) in `agent.headers`. */
  env: EnvLookup;
  /**
   * With `shareTools` (AG-UI): the workspace's tool-server tools. Each `tools.tools[name].execute`
   * runs the call on its server (approval rules included) and resolves to a `ToolRun`;
   * `tools.origins` maps the name to `{source, tool}`.
   */
  tools?: RunTools;
  /** At most this many agent runs (AG-UI tool round trips) in one turn. */
  maxSteps: number;
}

/** How an agent turn ends, besides its chunks. */
export interface AgentTurnResult {
  /** What the client appends to its history: the assistant's reply (and tool messages, if any). */
  messages: ModelMessage[];
  usage?: ChatUsage;
}

/**
 * An adapter: yields the turn's `text`, `reasoning`, `tool-call`, `tool-result` and `step` chunks
 * (never `start`, `finish` or `error`: the chat run adds those) and returns the messages. A failure
 * (an HTTP error, a protocol error, a failed task, `RUN_ERROR`) is thrown as an `Error` whose
 * message is one sentence a person understands.
 */
export type AgentTurn = (input: AgentTurnInput) => AsyncGenerator<TurnChunk, AgentTurnResult>;
