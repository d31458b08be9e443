/** `POST /api/llm/test`: a tiny real generation that says whether a profile works, and if not why. */
import { generateText } from "ai";
import type { EnvLookup } from "../config/env_refs.ts";
import type { LlmProfile } from "../../wire/config/schema.ts";
import { describeModelError } from "./failures.ts";
import { resolveModel } from "./providers.ts";
import type { ProfileProbe } from "../../wire/models.ts";

/** The prompt of the test: short, so the answer costs next to nothing. */
const PROBE_PROMPT = "Reply with the single word OK.";

/** Runs one small generation with the profile; never throws. */
export async function testProfile(
  profile: LlmProfile,
  env: EnvLookup,
  options: { timeoutMs?: number } = {},
): Promise<ProfileProbe> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const started = performance.now();
  const latencyMs = () => Math.round(performance.now() - started);
  let resolved;
  try {
    resolved = resolveModel(profile, env);
  } catch (error) {
    return { ok: false, latencyMs: 0, error: (error as Error).message };
  }
  if (resolved.problem) return { ok: false, latencyMs: 0, error: resolved.problem };
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const result = await generateText({
      ...resolved.settings,
      model: resolved.model,
      prompt: PROBE_PROMPT,
      maxRetries: 0,
      abortSignal: deadline,
    });
    return { ok: true, latencyMs: latencyMs(), text: result.text.trim().slice(0, 500) };
  } catch (error) {
    const context = {
      provider: profile.provider,
      endpoint: resolved.shownEndpoint,
      model: profile.model,
      timeoutMs,
      secrets: resolved.secrets,
    };
    return {
      ok: false,
      latencyMs: latencyMs(),
      error: describeModelError(error, context, deadline.aborted),
    };
  }
}
