/** `POST /api/ui/generate`: a workspace's model with only the render tool, for one prompt. */
import { generateText, isStepCount, type StepResult, type ToolSet } from "ai";
import { usageOf } from "../llm/sdk_usage.ts";
import { renderTool } from "../chat/ui_tools.ts";
import type { ChatUsage } from "../../wire/usage.ts";
import type { LlmProfile, Workspace } from "../../wire/config/schema.ts";
import { LassError } from "../errors.ts";
import { describeModelError } from "../llm/failures.ts";
import { configuredModel } from "../llm/providers.ts";
import type { Service } from "../service.ts";
import { offerFor } from "./offer.ts";
import type { SurfaceProblem, SurfaceResult } from "../../wire/genui.ts";
import { SurfaceIds } from "./surface_ids.ts";

/** How long a generation may take in all. */
export const GENERATE_TIMEOUT_MS = 120_000;
/** Model steps: the first call and up to two retries after problems. */
const MAX_STEPS = 3;

/** What `POST /api/ui/generate` answers. */
export interface GeneratedUi {
  /** Whether a surface was made; then `messages` holds it. */
  ok: boolean;
  surfaceId?: string;
  title?: string;
  messages: unknown[];
  /** The problems of the last render call (repaired ones when it succeeded). */
  problems: SurfaceProblem[];
  /** What the model wrote besides the tool calls. */
  text: string;
  usage: ChatUsage;
  /** How many times the model called the render tool. */
  attempts: number;
}

/** The request of one generation. */
export interface GenerateRequest {
  service: Service;
  prompt: string;
  workspace: Workspace;
  profile: LlmProfile;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * Runs the model with the workspace's render tool and its instructions only. The first step must
 * call the tool; an input with problems goes back to the model, which may try again (up to three
 * steps); the run stops at the first surface that could be made. A model that fails is 502
 * `upstream-error`, one that takes too long 504 `timeout`.
 */
export async function generateUi(request: GenerateRequest): Promise<GeneratedUi> {
  const { service, workspace, profile } = request;
  const offer = offerFor(workspace, await service.catalogs.list());
  if (!offer) {
    throw new LassError(
      "not-found",
      `the workspace ${workspace.id} has no render tool (generativeUi is off or offers no component)`,
    );
  }
  const model = configuredModel(profile, service.env);
  if (model.problem) {
    throw new LassError(
      "invalid-request",
      `the model profile ${profile.id} cannot be used: ${model.problem}`,
    );
  }
  let last: SurfaceResult | undefined;
  let attempts = 0;
  const { definition, tool } = renderTool(offer, new SurfaceIds("generated"), (result) => {
    last = result;
    attempts++;
  });
  const timeoutMs = request.timeoutMs ?? GENERATE_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
  let steps: StepResult<ToolSet>[];
  let usage;
  try {
    const result = await generateText({
      ...model.settings,
      model: model.model,
      instructions: definition.instructions,
      prompt: request.prompt,
      tools: { [definition.name]: tool } as ToolSet,
      prepareStep: ({ stepNumber }) => stepNumber === 0 ? { toolChoice: "required" } : {},
      stopWhen: [isStepCount(MAX_STEPS), () => last?.ok === true],
      abortSignal: signal,
      maxRetries: 1,
    });
    steps = result.steps as StepResult<ToolSet>[];
    usage = result.totalUsage;
  } catch (error) {
    const context = {
      provider: profile.provider,
      endpoint: model.shownEndpoint,
      model: profile.model,
      timeoutMs,
      secrets: model.secrets,
    };
    if (deadline.aborted) {
      throw new LassError("timeout", describeModelError(error, context, true));
    }
    throw new LassError("upstream-error", describeModelError(error, context));
  }
  return {
    ok: last?.ok === true,
    ...(last?.ok && { surfaceId: last.surfaceId }),
    ...(last?.ok && last.title && { title: last.title }),
    messages: last?.ok ? last.messages : [],
    problems: last?.problems ?? [],
    text: steps.map((step) => step.text).join("\n").trim(),
    usage: usageOf(usage),
    attempts,
  };
}
