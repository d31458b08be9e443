/** The demo server's prompts: `code_review` and `plan_trip`, both with arguments. */
import { z } from "zod";
import type { McpServer } from "@modelcontextprotocol/server";

/** Registers `code_review` and `plan_trip`. */
export function registerDemoPrompts(server: McpServer): void {
  server.registerPrompt("code_review", {
    title: "Review code",
    description: "Asks the model for a focused code review.",
    argsSchema: z.object({
      code: z.string().min(1).describe("The code to review"),
      language: z.string().optional().describe("Programming language, e.g. TypeScript"),
    }),
  }, ({ code, language }) => ({
    description: `Code review${language ? ` (${language})` : ""}`,
    messages: [{
      role: "user",
      content: {
        type: "text",
        text: `Please review this ${language ?? "code"}. Point out bugs, unclear names and ` +
          `missing error handling, most important first.\n\n\`\`\`${
            language?.toLowerCase() ?? ""
          }\n` +
          `${code}\n\`\`\``,
      },
    }],
  }));

  server.registerPrompt("plan_trip", {
    title: "Plan a trip",
    description: "Asks the model for a day-by-day travel plan.",
    argsSchema: z.object({
      destination: z.string().min(1).describe("Where to go"),
      // Prompt arguments travel as strings, so the number of days is coerced.
      days: z.coerce.number().int().min(1).max(30).describe("Number of days, 1-30"),
    }),
  }, ({ destination, days }) => ({
    description: `A ${days}-day trip to ${destination}`,
    messages: [
      {
        role: "user",
        content: {
          type: "text",
          text: `Plan a ${days}-day trip to ${destination}. For each day give a morning, ` +
            `afternoon and evening idea, and keep travel between places short.`,
        },
      },
      {
        role: "assistant",
        content: { type: "text", text: `Here is a ${days}-day plan for ${destination}:` },
      },
    ],
  }));
}
