/** Model profiles: `POST /api/llm/test` and `POST /api/llm/models`. */
import { z } from "zod";
import { LlmProfileSchema } from "../wire/config/llm_profile_schema.ts";
import { readBody } from "./body.ts";
import { json } from "./http.ts";
import type { Routes } from "./context.ts";

const ProfileBody = z.strictObject({ profile: LlmProfileSchema });

/** Model routes. The AI SDK is loaded on first use, so it costs nothing at startup. */
export const llmRoutes: Routes = {
  "/api/llm/test": {
    POST: async (req, { service, llmTimeoutMs }) => {
      const { profile } = await readBody(req, ProfileBody);
      const { testProfile } = await import("../core/llm/probe.ts");
      return json(await testProfile(profile, service.env, { timeoutMs: llmTimeoutMs }));
    },
  },
  "/api/llm/models": {
    POST: async (req, { service, llmTimeoutMs }) => {
      const { profile } = await readBody(req, ProfileBody);
      const { listModels } = await import("../core/llm/models.ts");
      return json(await listModels(profile, service.env, { timeoutMs: llmTimeoutMs }));
    },
  },
};
