/** The body of `POST /api/chat` and what it resolves to: the workspace, the model and the tools' owner. */
import { z } from "zod";
import type { LlmProfile, ServiceConfig, Workspace } from "../../wire/config/schema.ts";
import { LassError } from "../errors.ts";
import { SESSION_ID_PATTERN } from "../sessions.ts";
import { workspaceFor } from "../config/workspaces.ts";

/** A message as the body carries it; its content is checked against the AI SDK's schema later. */
const MessageShape = z.looseObject({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.unknown(),
});

/** The body of `POST /api/chat`. */
export const ChatBodySchema = z.strictObject({
  messages: z.array(MessageShape).min(1),
  workspaceId: z.string().min(1).optional(),
  llmId: z.string().min(1).optional(),
  agentId: z.string().min(1).optional(),
  sessionId: z.string().regex(SESSION_ID_PATTERN, "1-128 letters, digits, '_' or '-'")
    .optional(),
});

/** A parsed chat body. */
export type ChatBody = z.output<typeof ChatBodySchema>;

/** A remote agent record. */
type Agent = ServiceConfig["agents"][number];

/** Who answers a turn: a model profile, or a remote agent. */
export type Responder =
  | { kind: "model"; profile: LlmProfile }
  | { kind: "agent"; agent: Agent };

/** A chat body resolved against the config. */
export interface ResolvedChat {
  workspace: Workspace;
  responder: Responder;
}

/**
 * Resolves the workspace (`workspaceId`, else the active one, else the first) and who answers: `agentId` of
 * the body or the workspace goes to that agent; otherwise the model is `llmId`, else the
 * workspace's `llmId`, else the first profile. Unknown ids are 404 `not-found`.
 */
export function resolveChat(config: ServiceConfig, body: ChatBody): ResolvedChat {
  const workspace = workspaceFor(config, body.workspaceId);
  const agentId = body.llmId ? body.agentId : body.agentId ?? workspace.agentId;
  if (agentId) {
    const agent = config.agents.find((candidate) => candidate.id === agentId);
    if (!agent) throw new LassError("not-found", `no agent has id ${agentId}`);
    return { workspace, responder: { kind: "agent", agent } };
  }
  const llmId = body.llmId ?? workspace.llmId;
  const profile = llmId ? config.llms.find((candidate) => candidate.id === llmId) : config.llms[0];
  if (!profile) {
    throw new LassError(
      "not-found",
      llmId ? `no model profile has id ${llmId}` : "the config has no model profile",
    );
  }
  return { workspace, responder: { kind: "model", profile } };
}
