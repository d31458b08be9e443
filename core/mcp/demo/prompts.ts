/** The demo server's prompts: `code_review` and `plan_trip`, both with arguments that complete. */
import { z } from "zod";
import { completable, type McpServer } from "@modelcontextprotocol/server";

/** Suggestions for `code_review`'s `language` (`completion/complete`). */
const LANGUAGES = ["Go", "JavaScript", "Python", "Rust", "TypeScript"];
/** Suggestions for `plan_trip`'s `destination`. */
const DESTINATIONS = ["Berlin", "Kyoto", "Lisbon", "Montreal", "Oslo", "Oaxaca"];

/** The suggestions that start with what was typed, ignoring case. */
function startingWith(choices: string[]): (value: string) => string[] {
  return (value) => choices.filter((c) => c.toLowerCase().startsWith(value.toLowerCase()));
}

/** Registers `code_review` and `plan_trip`. */
export function registerDemoPrompts(server: McpServer): void {
  server.registerPrompt("code_review", {
    title: "Review code",
    description: "Asks the model for a focused code review.",
    argsSchema: z.object({
      code: z.string().min(1).describe("The code to review"),
      // The SDK looks for the completer inside `optional()`.
      language: completable(z.string(), startingWith(LANGUAGES)).optional()
        .describe("Programming language, e.g. TypeScript"),
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
      destination: completable(
        z.string().min(1).describe("Where to go"),
        startingWith(DESTINATIONS),
      ),
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
