/** The workspace's tools as AG-UI frontend tools: offered to the agent, run here when it calls them. */
import type {
  JSONValue,
  LanguageModelV4ToolResultOutput as ToolResultOutput,
} from "@ai-sdk/provider";
import type { Tool as AguiTool } from "@ag-ui/client";
import { asSchema, type ToolSet } from "ai";
import type { ToolRun } from "../chat/tools.ts";

/** Each tool as `{name, description, parameters}`, the parameters as JSON Schema. */
export async function frontendTools(tools: ToolSet): Promise<AguiTool[]> {
  return await Promise.all(
    Object.entries(tools).map(async ([name, tool]) => ({
      name,
      description: typeof tool.description === "string" ? tool.description : name,
      parameters: await asSchema(tool.inputSchema).jsonSchema,
    })),
  );
}

/** Whether a tool's answer is a `ToolRun` (every tool-server tool answers one). */
function isToolRun(value: unknown): value is ToolRun {
  const run = value as ToolRun | undefined;
  return typeof run?.model?.type === "string" && typeof run.isError === "boolean";
}

/**
 * Runs one call through the tool's own `execute` (approval rules apply there). A failure becomes
 * an error result; an abort of `signal` is thrown.
 */
export async function runFrontendTool(
  tools: ToolSet,
  options: { call: { id: string; name: string; input?: unknown }; signal: AbortSignal },
): Promise<ToolRun> {
  const { call, signal } = options;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const execute = tools[call.name]?.execute;
  if (!execute) {
    return {
      model: { type: "error-text", value: `the tool ${call.name} cannot be run` },
      isError: true,
      durationMs: 0,
    };
  }
  try {
    let output: unknown = await execute(call.input, {
      toolCallId: call.id,
      messages: [],
      abortSignal: signal,
      context: undefined,
    });
    if (output && typeof output === "object" && Symbol.asyncIterator in output) {
      // A streaming tool: its last value is the result.
      for await (const value of output as AsyncIterable<unknown>) output = value;
    }
    if (isToolRun(output)) return output;
    const model: ToolResultOutput = typeof output === "string"
      ? { type: "text", value: output }
      : { type: "json", value: (output ?? null) as JSONValue };
    return { model, isError: false, durationMs: elapsed() };
  } catch (error) {
    if (signal.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return { model: { type: "error-text", value: message }, isError: true, durationMs: elapsed() };
  }
}
