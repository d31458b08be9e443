/**
 * The demo model's script: what it answers and which tools it calls (their arguments:
 * `args.ts`; its user interfaces: `ui.ts`).
 */
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  LanguageModelV4Prompt,
  LanguageModelV4ToolResultPart,
} from "@ai-sdk/provider";
import { schemaValue, toolInput } from "./args.ts";
import { findMentions } from "./mentions.ts";
import { givenUi, renderToolOf, type UiAction, uiAction, uiPreset, wantsUi } from "./ui.ts";
import { judgeAnswer } from "./judge.ts";

/** One tool call the demo model decided to make; `input` is a JSON object. */
export interface DemoCall {
  toolName: string;
  input: Record<string, unknown>;
  /** For a render tool: whether the input is the sample form or the UI the user wrote. */
  ui?: "sample" | "given";
}

/** What the demo model answers to one call: its reasoning, its text and its tool calls. */
export interface DemoPlan {
  reasoning: string;
  text: string;
  calls: DemoCall[];
}

/** The parts of the call options that decide the answer. */
export type DemoInput = Pick<
  LanguageModelV4CallOptions,
  "prompt" | "tools" | "toolChoice" | "responseFormat"
>;

/** Decides the whole answer from the prompt, the offered tools and the tool choice. */
export function planReply(input: DemoInput): DemoPlan {
  if (input.responseFormat?.type === "json") return jsonPlan(input);
  const results = trailingToolResults(input.prompt);
  if (results.length > 0) return summariseResults(results);
  const tools = functionTools(input);
  const message = latestUserText(input.prompt);
  const action = uiAction(message);
  if (action) return actionPlan(action);
  const calls = chooseCalls(message, tools, input.toolChoice);
  if (calls.length > 0) return callPlan(calls, message, tools);
  return answerPlan(message, tools, input.prompt.some((m) => m.role === "system"));
}

// ---- reading the prompt ----

/** The text of the latest user message, its text parts joined by new lines. */
function latestUserText(prompt: LanguageModelV4Prompt): string {
  const message = prompt.findLast((m) => m.role === "user");
  if (message?.role !== "user") return "";
  return message.content.flatMap((p) => p.type === "text" ? [p.text] : []).join("\n").trim();
}

/** The tool results at the end of the prompt (after the model's last tool calls), in order. */
function trailingToolResults(prompt: LanguageModelV4Prompt): LanguageModelV4ToolResultPart[] {
  let first = prompt.length;
  while (first > 0 && prompt[first - 1].role === "tool") first--;
  return prompt.slice(first).flatMap((m) =>
    m.role === "tool" ? m.content.filter((p) => p.type === "tool-result") : []
  );
}

/** The offered function tools (provider tools are ignored). */
function functionTools(input: DemoInput): LanguageModelV4FunctionTool[] {
  return (input.tools ?? []).filter((t): t is LanguageModelV4FunctionTool => t.type === "function");
}

// ---- choosing tools ----

/**
 * The calls to make: the named tools, else the render tool when the message asks for UI (or
 * carries components), as the tool choice allows. Naming wins: "legacy ui card" calls that tool
 * only, without a second, unasked-for render call.
 */
function chooseCalls(
  message: string,
  tools: LanguageModelV4FunctionTool[],
  choice: DemoInput["toolChoice"],
): DemoCall[] {
  if (tools.length === 0 || choice?.type === "none") return [];
  const mentions = findMentions(message, tools);
  let chosen = mentions.map((m) => m.tool);
  const render = renderToolOf(tools);
  if (chosen.length === 0 && render && (wantsUi(message) || givenUi(message))) chosen = [render];
  if (choice?.type === "tool") chosen = tools.filter((t) => t.name === choice.toolName);
  if (choice?.type === "required" && chosen.length === 0) chosen = [tools[0]];
  return chosen.map((tool) => {
    const preset = uiPreset(tool, message);
    return {
      toolName: tool.name,
      input: toolInput(tool, {
        message,
        mentions,
        ...(preset?.kind === "given" ? { given: preset.input } : { preset: preset?.input }),
      }),
      ...(preset && { ui: preset.kind }),
    };
  });
}

// ---- the answer script ----

/**
 * The plan for a JSON response format: a judge's verdict when asked to judge (`judge.ts`),
 * else an object built from its schema, like tool arguments.
 */
function jsonPlan(input: DemoInput): DemoPlan {
  const format = input.responseFormat;
  const schema: unknown = format?.type === "json" ? format.schema : undefined;
  const message = latestUserText(input.prompt);
  const judged = judgeAnswer(message, schema);
  if (judged !== undefined) {
    return {
      reasoning: "I am asked to judge an answer, so I score the rubric's key terms found in it.",
      text: judged,
      calls: [],
    };
  }
  const value = schemaValue(schema, message);
  return {
    reasoning: "A JSON answer is required, so I will fill the schema from the message.",
    text: JSON.stringify(value),
    calls: [],
  };
}

/** The plan for a turn that calls tools; the reasoning says truly why each tool is called. */
function callPlan(calls: DemoCall[], message: string, tools: LanguageModelV4FunctionTool[]) {
  const names = listNames(calls.map((c) => c.toolName));
  const named = findMentions(message, tools).length > 0;
  const them = calls.length > 1 ? "them" : "it";
  let reason: string;
  if (named) {
    reason =
      `The user named ${names}, so I will call ${them} with arguments taken from the message.`;
  } else if (calls[0]?.ui === "given") {
    reason = `The user asked for UI and wrote its components, so I will pass them to ${names}.`;
  } else if (calls[0]?.ui === "sample") {
    reason = `The user asked for UI, so I will call ${names} with a small sign-up form.`;
  } else {
    reason = `The tool choice asks for ${names}, so I will call ${them}.`;
  }
  const lines = calls.map((c) =>
    c.ui === "sample"
      ? `Calling \`${c.toolName}\` to show a small sign-up form.`
      : c.ui === "given"
      ? `Calling \`${c.toolName}\` to show the UI from your message.`
      : `Calling \`${c.toolName}\` with ${shortJson(c.input)}.`
  );
  return { reasoning: reason, text: lines.join("\n"), calls };
}

/**
 * The answer to a UI action: a sign-up is confirmed by name (or e-mail) from its context, any
 * other action is acknowledged with the values it carried.
 */
function actionPlan(action: UiAction): DemoPlan {
  const reasoning =
    `The user pressed "${action.name}" on a UI I showed, so I will answer from its context.`;
  const who = [action.context.name, action.context.email].find((value) =>
    typeof value === "string" && value.trim() !== ""
  ) as string | undefined;
  if (/sign[\s_-]?up|register/i.test(action.name)) {
    const text = who
      ? `Thanks, ${who.trim()}, you are signed up.`
      : "Thanks, you are signed up (the form sent no name or e-mail).";
    return { reasoning, text, calls: [] };
  }
  const values = Object.entries(action.context).map(([key, value]) =>
    `${key} = ${shortJson(value)}`
  );
  const where = action.surfaceId ? ` on the surface ${action.surfaceId}` : "";
  const text = `Got your "${action.name}" action${where}` +
    (values.length > 0 ? ` with ${values.join(", ")}.` : ".");
  return { reasoning, text, calls: [] };
}

/** The plan for the turn after tool results: one sentence per result, no new calls. */
function summariseResults(results: LanguageModelV4ToolResultPart[]): DemoPlan {
  const lines = results.map(describeResult);
  const text = lines.length === 1
    ? lines[0]
    : `Here are the results:\n${lines.map((l) => `- ${l}`).join("\n")}`;
  const reasoning =
    "The tool results are back, so I will summarise them instead of calling more tools.";
  return { reasoning, text, calls: [] };
}

/** One sentence about one tool result, saying when it was an error. */
function describeResult(part: LanguageModelV4ToolResultPart): string {
  const name = `\`${part.toolName}\``;
  const output = part.output;
  switch (output.type) {
    case "json":
      return `${name} returned ${shortJson(output.value)}.`;
    case "text":
      return `${name} returned ${clip(output.value)}.`;
    case "error-text":
      return `${name} failed with an error: ${clip(output.value)}.`;
    case "error-json":
      return `${name} failed with an error: ${shortJson(output.value)}.`;
    case "execution-denied":
      return `${name} was not run: the call was denied${
        output.reason ? ` (${clip(output.reason)})` : ""
      }.`;
    case "content": {
      const texts = output.value.map((v) => v.type === "text" ? v.text : `[${v.type}]`);
      return `${name} returned ${clip(texts.join(" "))}.`;
    }
  }
}

/** The plan for a turn without tool calls: tool list, help, greeting, UI hint or echo. */
function answerPlan(
  message: string,
  tools: LanguageModelV4FunctionTool[],
  hasInstructions: boolean,
): DemoPlan {
  const plan = (reasoning: string, text: string): DemoPlan => ({ reasoning, text, calls: [] });
  if (
    /what (tools|can you do)|which tools|list (your |the )?tools|tools? (do you|are)/i.test(message)
  ) {
    return plan(
      "The user asked what I can do, so I will list the tools offered in this chat.",
      toolListText(tools),
    );
  }
  if (/\bhelp\b/i.test(message)) {
    return plan(
      "The user asked for help, so I will explain how to use this demo model.",
      helpText(hasInstructions),
    );
  }
  if (/^\s*(hi|hello|hey|howdy|greetings|good (morning|afternoon|evening))\b/i.test(message)) {
    return plan(
      "The user greeted me, so I will say hello and explain what I can do.",
      "Hello! I am the Lass demo model, a scripted model that needs no API key. " +
        'Ask "what tools do you have", name a tool to have me call it, or ask for a form to see UI.',
    );
  }
  const echoWord =
    /\b(?:reply|respond|answer)\b[^"'\n]*?\bwords?\s+["']?([\p{L}\p{N}_-]+)["']?/iu.exec(message) ??
      /^\s*say\s+["']?([\p{L}\p{N}_-]+)["']?[.!]?\s*$/iu.exec(message);
  if (echoWord) {
    return plan("The user asked for one exact word, so I will reply with just that.", echoWord[1]);
  }
  if (wantsUi(message)) {
    return plan(
      "The user asked for UI, but no render tool is offered, so I will explain that.",
      "You asked for UI, but no render tool is offered here. Turn on generative UI for this " +
        "workspace (the `render_ui` tool) and ask again, and I will show a small sign-up form.",
    );
  }
  return plan(
    "No tool was named, so I will reply with a short scripted answer.",
    echoText(message, tools, hasInstructions),
  );
}

/** The list of offered tools with the first sentence of their descriptions. */
function toolListText(tools: LanguageModelV4FunctionTool[]): string {
  if (tools.length === 0) {
    return "No tools are offered in this chat, so I can only talk. " +
      "Enable a tool and name it in your message to have me call it.";
  }
  const lines = tools.map((t) => `- \`${t.name}\`: ${firstSentence(t.description)}`);
  return `These tools are offered in this chat:\n${
    lines.join("\n")
  }\nName one in your message and I will call it.`;
}

/** The reply to anything else: a summary of the question and a hint to name a tool. */
function echoText(
  message: string,
  tools: LanguageModelV4FunctionTool[],
  hasInstructions: boolean,
): string {
  const intro = message ? `You asked: "${summarise(message)}". ` : "I did not get a question. ";
  const who = hasInstructions ? "I follow this workspace's instructions, but I am" : "I am";
  const names = tools.slice(0, 5).map((t) => `\`${t.name}\``);
  if (tools.length > 5) names.push(`${tools.length - 5} more`);
  const tip = tools.length > 0
    ? `Name one of the offered tools (${
      names.join(", ")
    }) and I will call it with arguments from your message, or say "help".`
    : 'No tools are offered right now; say "help" to see what I can do.';
  return `${intro}${who} a scripted demo model, so I cannot really answer that. ${tip}`;
}

/** The help answer: how to call a tool, how to get UI, and what this model is. */
function helpText(hasInstructions: boolean): string {
  return [
    "I am the Lass demo model: a scripted stand-in that runs in-process, with no API key and no network.",
    "To make me call a tool, name it in your message (for example `add 2 and 3`): I take numbers, " +
    "quoted text, yes/no words or a JSON object from your message as its arguments.",
    "To get UI, ask for a form, card or table while a render tool (`render_ui`) is offered.",
    'Ask "what tools do you have" to see the offered tools.' +
    (hasInstructions ? " I follow this workspace's instructions." : ""),
  ].join("\n");
}

// ---- small text helpers ----

/** `a`, `a` and `b`, `a`, `b` and `c`: tool names in backticks. */
function listNames(names: string[]): string {
  const quoted = names.map((n) => `\`${n}\``);
  return quoted.length <= 1
    ? quoted.join("")
    : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
}

/** The first sentence of a description, clipped. */
function firstSentence(description: string | undefined): string {
  const sentence = (description ?? "").trim().split(/(?<=[.!?])\s/)[0];
  if (!sentence) return "(no description)";
  return sentence.length <= 120 ? sentence.replace(/\s+/g, " ") : clip(sentence, 120);
}

/** The question, whitespace collapsed and clipped at a word boundary. */
function summarise(message: string): string {
  const flat = message.replace(/\s+/g, " ").trim();
  if (flat.length <= 80) return flat;
  return `${flat.slice(0, 80).replace(/\s+\S*$/, "")}…`;
}

/** Short JSON of a value, clipped. */
function shortJson(value: unknown): string {
  return clip(JSON.stringify(value) ?? "null", 160);
}

/** Collapses whitespace, drops a trailing period and clips to `max` characters. */
function clip(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, " ").trim().replace(/\.$/, "");
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
