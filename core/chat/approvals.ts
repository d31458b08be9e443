/** Which tool calls wait for the user's approval, asking through interactions, and what is remembered. */
import type { McpServerConfig, Workspace } from "../../wire/config/schema.ts";
import type { ConfigStore } from "../config/store.ts";
import type { InteractionRegistry } from "../interactions.ts";

/** What the gate needs. */
export interface ApprovalGateOptions {
  config: ConfigStore;
  interactions: InteractionRegistry;
  /** How long a question waits for the person before it counts as denied; default 10 min. */
  timeoutMs?: number;
}

/** One call that may need approval. */
export interface ApprovalQuestion {
  runId: string;
  server: McpServerConfig;
  tool: string;
  input: unknown;
  /** The run's signal: an aborted run withdraws its questions. */
  signal: AbortSignal;
}

/** The person's decision, and why when it is a no. */
export type ApprovalDecision = { approved: true } | { approved: false; reason: string };

const key = (serverId: string, tool: string) => `${serverId}\u0000${tool}`;

/**
 * Decides whether a call needs approval and asks for it. The order: the server's per-tool
 * setting (`approval.tools[tool]`), then an approval remembered for this process, then the
 * workspace's `requireApproval`, then the server's `approval.default`; without any, calls run.
 */
export class ApprovalGate {
  readonly #options: ApprovalGateOptions;
  /** Tools approved with `remember: "session"` (or `"always"`), until the process stops. */
  readonly #remembered = new Set<string>();

  constructor(options: ApprovalGateOptions) {
    this.#options = options;
  }

  /** Whether a call of `tool` on `server` in `workspace` waits for the user. */
  needsApproval(workspace: Workspace, server: McpServerConfig, tool: string): boolean {
    const explicit = server.approval?.tools?.[tool];
    if (explicit === "auto") return false;
    if (this.#remembered.has(key(server.id, tool))) return false;
    if (explicit === "ask" || workspace.requireApproval) return true;
    return server.approval?.default === "ask";
  }

  /** Asks the person through an approval interaction; remembers the answer when asked to. */
  async ask(question: ApprovalQuestion): Promise<ApprovalDecision> {
    const { response } = this.#options.interactions.create({
      kind: "approval",
      runId: question.runId,
      serverId: question.server.id,
      tool: question.tool,
      input: question.input,
    }, { signal: question.signal, timeoutMs: this.#options.timeoutMs ?? 600_000 });
    let answer;
    try {
      answer = await response;
    } catch (error) {
      if (question.signal.aborted) throw question.signal.reason ?? error;
      return { approved: false, reason: "not approved in time" };
    }
    if (!answer.approved) return { approved: false, reason: "denied by the user" };
    if (answer.remember) this.#remembered.add(key(question.server.id, question.tool));
    if (answer.remember === "always") await this.#rememberAlways(question.server.id, question.tool);
    return { approved: true };
  }

  /** Writes `approval.tools[tool] = "auto"` into the server's record, atomically. */
  async #rememberAlways(serverId: string, tool: string): Promise<void> {
    await this.#options.config.update((stored) => ({
      ...stored,
      mcpServers: (stored.mcpServers as Record<string, unknown>[]).map((server) => {
        if (server.id !== serverId) return server;
        const approval = (server.approval ?? {}) as { tools?: Record<string, string> };
        return {
          ...server,
          approval: { ...approval, tools: { ...approval.tools, [tool]: "auto" } },
        };
      }),
    }));
  }
}
