/**
 * The demo tools that need the client: `ask_user` (form elicitation), `open_url` (url
 * elicitation), `summarize_with_model` (sampling) and `list_roots` (roots). Each one asks by
 * returning `input_required` (protocol 2026-07-28); on a 2025 connection the SDK turns that into
 * a real server-to-client request and calls the tool again with the answer.
 */
import { z } from "zod";
import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  type ElicitRequestFormParams,
  inputRequired,
  inputResponse,
  type McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { logToolCall, toolError } from "./tools.ts";

/** The form `ask_user` shows: every field has a default, so "accept" alone is a valid answer. */
const PROFILE_FORM: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    name: {
      type: "string",
      title: "Name",
      description: "What should I call you?",
      minLength: 1,
      maxLength: 40,
      default: "Ada",
    },
    color: {
      type: "string",
      title: "Favourite colour",
      enum: ["red", "green", "blue"],
      default: "blue",
    },
    subscribe: { type: "boolean", title: "Send me updates", default: false },
  },
  required: ["name"],
};

/** The page `open_url` sends the user to unless told otherwise; nothing is fetched. */
const DEFAULT_URL = "https://example.com/lass-demo/sign-in";

/** What `ask_user`, `open_url` answer as structured content. */
const answerShape = z.object({
  action: z.enum(["accept", "decline", "cancel"]),
  content: z.record(z.string(), z.unknown()).optional(),
});

/**
 * The capabilities the client declared: per request on 2026-07-28 (the `_meta` envelope), in
 * `initialize` on the 2025 era.
 */
export function clientCapabilities(
  server: McpServer,
  ctx: ServerContext,
): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ??
    server.server.getClientCapabilities();
}

/** Whether the client takes form elicitations (`elicitation: {}` meant form before modes existed). */
export function supportsFormElicitation(capabilities: ClientCapabilities | undefined): boolean {
  const elicitation = capabilities?.elicitation;
  return elicitation !== undefined &&
    (elicitation.form !== undefined || elicitation.url === undefined);
}

/** Registers `ask_user`, `open_url`, `summarize_with_model` and `list_roots`. */
export function registerClientRequestTools(server: McpServer): void {
  server.registerTool("ask_user", {
    title: "Ask the user",
    description: "Asks the user to fill in a small form (MCP elicitation, form mode) and returns " +
      "their answer, or that they declined or cancelled.",
    inputSchema: z.object({
      message: z.string().optional().describe("What to tell the user (default: a greeting)"),
    }),
    outputSchema: answerShape,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, async ({ message = "Hello! Tell me a little about yourself." }, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, "profile");
    if (answer.kind === "missing") {
      if (!supportsFormElicitation(clientCapabilities(server, ctx))) {
        return toolError("This client does not support form elicitation, so ask_user cannot ask.");
      }
      await logToolCall(ctx, "ask_user: sending an elicitation");
      return inputRequired({
        inputRequests: {
          profile: inputRequired.elicit({ mode: "form", message, requestedSchema: PROFILE_FORM }),
        },
      });
    }
    if (answer.kind !== "elicit") {
      return toolError("The client answered the form with something else.");
    }
    const text = answer.action === "accept"
      ? `The user answered: ${JSON.stringify(answer.content ?? {})}`
      : `The user chose to ${answer.action}.`;
    return {
      content: [{ type: "text", text }],
      structuredContent: answer.action === "accept" && answer.content
        ? { action: answer.action, content: answer.content }
        : { action: answer.action },
    };
  });

  server.registerTool("open_url", {
    title: "Send the user to a page",
    description: "Asks the user to open a web page (MCP elicitation, url mode), as a server does " +
      "for a sign-in or a payment, and returns whether they went. Nothing is fetched.",
    inputSchema: z.object({
      url: z.url().optional().describe(`The page to open (default ${DEFAULT_URL})`),
      message: z.string().optional().describe("Why the user should open it"),
    }),
    outputSchema: answerShape,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, async ({ url = DEFAULT_URL, message = "Please open this page to continue." }, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, "visit");
    if (answer.kind === "missing") {
      if (clientCapabilities(server, ctx)?.elicitation?.url === undefined) {
        return toolError("This client does not support url elicitation, so open_url cannot ask.");
      }
      await logToolCall(ctx, "open_url: sending a url elicitation");
      return inputRequired({ inputRequests: { visit: inputRequired.elicitUrl({ message, url }) } });
    }
    if (answer.kind !== "elicit") return toolError("The client answered with something else.");
    const text = answer.action === "accept"
      ? `The user opened ${url}.`
      : `The user chose to ${answer.action} instead of opening ${url}.`;
    return { content: [{ type: "text", text }], structuredContent: { action: answer.action } };
  });

  server.registerTool("summarize_with_model", {
    title: "Summarize with the client's model",
    description: "Asks the client's language model (MCP sampling) to summarize a text and " +
      "returns the model's answer. Needs a client that supports sampling.",
    inputSchema: z.object({
      text: z.string().min(1).describe("The text to summarize"),
      maxWords: z.int().min(5).max(200).optional().describe("Summary length limit (default 30)"),
    }),
    outputSchema: z.object({ summary: z.string(), model: z.string() }),
    annotations: { readOnlyHint: true },
  }, async ({ text, maxWords = 30 }, ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, "summary");
    if (answer.kind === "missing") {
      if (!clientCapabilities(server, ctx)?.sampling) {
        return toolError(
          "This client does not support sampling, so summarize_with_model cannot ask.",
        );
      }
      await logToolCall(ctx, "summarize_with_model: sending a sampling request");
      return inputRequired({
        inputRequests: {
          summary: inputRequired.createMessage({
            systemPrompt: "You write short, faithful summaries.",
            messages: [{
              role: "user",
              content: { type: "text", text: `Summarize in at most ${maxWords} words:\n\n${text}` },
            }],
            maxTokens: maxWords * 4,
            includeContext: "none",
          }),
        },
      });
    }
    if (answer.kind !== "sampling") return toolError("The client answered with something else.");
    const content = Array.isArray(answer.result.content)
      ? answer.result.content[0]
      : answer.result.content;
    if (content?.type !== "text") {
      return toolError(`The model answered with ${content?.type} content instead of text.`);
    }
    return {
      content: [{ type: "text", text: content.text }],
      structuredContent: { summary: content.text, model: answer.result.model },
    };
  });

  server.registerTool("list_roots", {
    title: "List the client's roots",
    description: "Asks the client for its roots (MCP roots: the folders or files it shares with " +
      "servers) and lists them.",
    outputSchema: z.object({
      roots: z.array(z.object({ uri: z.string(), name: z.string().optional() })),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, async (ctx) => {
    const answer = inputResponse(ctx.mcpReq.inputResponses, "roots");
    if (answer.kind === "missing") {
      if (!clientCapabilities(server, ctx)?.roots) {
        return toolError("This client does not share roots, so list_roots has nothing to list.");
      }
      await logToolCall(ctx, "list_roots: asking for the roots");
      return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    }
    if (answer.kind !== "roots") return toolError("The client answered with something else.");
    const roots = answer.roots.map(({ uri, name }) => name === undefined ? { uri } : { uri, name });
    const text = roots.length === 0
      ? "The client shares no roots."
      : roots.map((root) => `${root.name ?? root.uri}: ${root.uri}`).join("\n");
    return { content: [{ type: "text", text }], structuredContent: { roots } };
  });
}
