/**
 * The demo's task tool, `long_report`: a slow made-up report. A client that declares the tasks
 * extension (2026-07-28) gets a task to poll; any other client waits for the result and gets
 * progress notifications. With `ask` it asks for the report's title midway, with `fail` it fails.
 */
import { z } from "zod";
import {
  type CallToolResult,
  type ElicitRequestFormParams,
  inputRequired,
  type InputRequiredResult,
  inputResponse,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { clientCapabilities, supportsFormElicitation } from "./client_tools.ts";
import { declaresTasks, type TaskStore } from "./tasks.ts";
import { type TaskRun } from "./types.ts";
import { logToolCall, sleep, toolError } from "./tools.ts";

/** The question `long_report` asks with `ask: true`. */
const TITLE_FORM: ElicitRequestFormParams["requestedSchema"] = {
  type: "object",
  properties: {
    title: { type: "string", title: "Report title", default: "Demo report" },
  },
  required: ["title"],
};
const DEFAULT_TITLE = "Demo report";
const QUESTION = "What should the report be called?";

/** The arguments, as the schema parses them. */
interface ReportArgs {
  steps: number;
  delayMs: number;
  fail: boolean;
  ask: boolean;
}

/** Registers `long_report`; its tasks live in `store`. */
export function registerReportTool(server: McpServer, store: TaskStore): void {
  server.registerTool("long_report", {
    title: "Write a long report (task)",
    description: "Writes a made-up report in `steps` slow steps. Runs as an MCP task for clients " +
      "that support tasks (poll it, cancel it), otherwise reports progress while the call waits. " +
      "`ask` asks for the title midway; `fail` makes it fail midway.",
    inputSchema: z.object({
      steps: z.int().min(1).max(50).default(5).describe("How many steps, 1-50 (default 5)"),
      delayMs: z.int().min(0).max(5000).default(300)
        .describe("Pause per step in ms (default 300)"),
      fail: z.boolean().default(false).describe("Fail midway (default false)"),
      ask: z.boolean().default(false).describe("Ask for the title midway (default false)"),
    }),
    // No outputSchema: the SDK would hold a task handle (no structuredContent) against it.
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, async (args, ctx) => {
    if (args.ask && !supportsFormElicitation(clientCapabilities(server, ctx))) {
      return toolError("This client does not support form elicitation, so long_report cannot ask.");
    }
    if (declaresTasks(ctx)) {
      await logToolCall(ctx, `long_report: started as a task, ${args.steps} steps`);
      // The SDK's result type knows no tasks; the 2026 encoder passes `resultType: "task"` on.
      return store.start((run) => reportAsTask(args, run)) as unknown as CallToolResult;
    }
    return await reportBlocking(args, ctx);
  });
}

/** The step after which the report asks or fails. */
function midway(steps: number): number {
  return Math.ceil(steps / 2);
}

/** The task's work: progress in the status message, the question through `tasks/update`. */
async function reportAsTask(
  args: ReportArgs,
  run: TaskRun,
): Promise<CallToolResult> {
  let title = DEFAULT_TITLE;
  for (let step = 1; step <= args.steps; step++) {
    if (!await sleep(args.delayMs, run.signal)) run.signal.throwIfAborted();
    run.progress(`Step ${step} of ${args.steps}`);
    if (step !== midway(args.steps)) continue;
    if (args.fail) throw failure(step, args.steps);
    if (args.ask) {
      const answer = inputResponse(
        { title: await run.ask("title", askTitle(), "Waiting for the report's title.") },
        "title",
      );
      title = titleFrom(answer);
    }
  }
  return report(title, args.steps);
}

/**
 * Without tasks: the call waits, with progress notifications. The question goes out as
 * `input_required`, and `requestState` says where to resume (2025 clients get a real
 * elicitation request from the SDK, which then calls again with the answer).
 */
async function reportBlocking(
  args: ReportArgs,
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  const resumeAt = Number(ctx.mcpReq.requestState<string>()?.replace(/^after:/, "") ?? 0);
  const answer = inputResponse(ctx.mcpReq.inputResponses, "title");
  const title = answer.kind === "missing" ? DEFAULT_TITLE : titleFrom(answer);
  if (resumeAt === 0) {
    await logToolCall(ctx, `long_report: ${args.steps} steps of ${args.delayMs} ms`);
  }
  const progressToken = ctx.mcpReq._meta?.progressToken;
  for (let step = resumeAt + 1; step <= args.steps; step++) {
    if (!await sleep(args.delayMs, ctx.mcpReq.signal)) {
      return toolError(`Cancelled after ${step - 1} of ${args.steps} steps.`);
    }
    if (progressToken !== undefined) {
      await ctx.mcpReq.notify({
        method: "notifications/progress",
        params: {
          progressToken,
          progress: step,
          total: args.steps,
          message: `Step ${step} of ${args.steps}`,
        },
      });
    }
    if (step !== midway(args.steps)) continue;
    if (args.fail) return toolError(failure(step, args.steps).message);
    if (args.ask) {
      return inputRequired({ inputRequests: { title: askTitle() }, requestState: `after:${step}` });
    }
  }
  return report(title, args.steps);
}

function askTitle() {
  return inputRequired.elicit({ mode: "form", message: QUESTION, requestedSchema: TITLE_FORM });
}

function titleFrom(answer: ReturnType<typeof inputResponse>): string {
  if (answer.kind !== "elicit" || answer.action !== "accept") return DEFAULT_TITLE;
  const title = answer.content?.title;
  return typeof title === "string" && title.trim() !== "" ? title.trim() : DEFAULT_TITLE;
}

function failure(step: number, steps: number): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    `The report failed on purpose at step ${step} of ${steps}.`,
  );
}

function report(title: string, steps: number): CallToolResult {
  return {
    content: [{ type: "text", text: `${title}: all ${steps} steps done (made-up report).` }],
    structuredContent: { title, steps },
  };
}
