/** The demo tools that call back into the client: `ask_user` (elicitation) and `summarize_with_model` (sampling). */
import { z } from "zod";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { ElicitRequestFormParams } from "@modelcontextprotocol/sdk/types.js";
import { logToolCall, toolError } from "./_demo_tools.ts";

/** The form `ask_user` shows: every field has a default, so "accept" alone is a valid answer. */
const PROFILE_FORM: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name", description: "What should I call you?", default: "Ada" },
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

/** Registers `ask_user` and `summarize_with_model`. */
export function registerClientRequestTools(server: McpServer): void {
  server.registerTool("ask_user", {
    title: "Ask the user",
    description: "Asks the user to fill in a small form (MCP elicitation, form mode) and returns " +
      "their answer, or that they declined or cancelled.",
    inputSchema: {
      message: z.string().optional().describe("What to tell the user (default: a greeting)"),
    },
    outputSchema: {
      action: z.enum(["accept", "decline", "cancel"]),
      content: z.record(z.string(), z.unknown()).optional(),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, async ({ message = "Hello! Tell me a little about yourself." }, extra) => {
    await logToolCall(server, extra, "ask_user: sending an elicitation");
    if (!server.server.getClientCapabilities()?.elicitation?.form) {
      return toolError("This client does not support form elicitation, so ask_user cannot ask.");
    }
    const answer = await server.server.elicitInput(
      { mode: "form", message, requestedSchema: PROFILE_FORM },
      { relatedRequestId: extra.requestId, signal: extra.signal },
    );
    const text = answer.action === "accept"
      ? `The user answered: ${JSON.stringify(answer.content ?? {})}`
      : `The user chose to ${answer.action}.`;
    return {
      content: [{ type: "text", text }],
      structuredContent: answer.content
        ? { action: answer.action, content: answer.content }
        : { action: answer.action },
    };
  });

  server.registerTool("summarize_with_model", {
    title: "Summarize with the client's model",
    description: "Asks the client's language model (MCP sampling) to summarize a text and " +
      "returns the model's answer. Needs a client that supports sampling.",
    inputSchema: {
      text: z.string().min(1).describe("The text to summarize"),
      maxWords: z.int().min(5).max(200).optional().describe("Summary length limit (default 30)"),
    },
    outputSchema: { summary: z.string(), model: z.string() },
    annotations: { readOnlyHint: true },
  }, async ({ text, maxWords = 30 }, extra) => {
    await logToolCall(server, extra, "summarize_with_model: sending a sampling request");
    if (!server.server.getClientCapabilities()?.sampling) {
      return toolError(
        "This client does not support sampling, so summarize_with_model cannot ask.",
      );
    }
    const result = await server.server.createMessage({
      systemPrompt: "You write short, faithful summaries.",
      messages: [{
        role: "user",
        content: { type: "text", text: `Summarize in at most ${maxWords} words:\n\n${text}` },
      }],
      maxTokens: maxWords * 4,
      includeContext: "none",
    }, { relatedRequestId: extra.requestId, signal: extra.signal });
    if (result.content.type !== "text") {
      return toolError(`The model answered with ${result.content.type} content instead of text.`);
    }
    const summary = result.content.text;
    return {
      content: [{ type: "text", text: summary }],
      structuredContent: { summary, model: result.model },
    };
  });
}
