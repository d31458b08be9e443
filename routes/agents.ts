/** Remote agents: `POST /api/agents/test`. */
import { z } from "zod";
import { AgentSchema } from "../wire/config/skill_agent_catalog_schemas.ts";
import { readBody } from "./body.ts";
import type { Routes } from "./context.ts";
import { json } from "./http.ts";

const TestBody = z.strictObject({ agent: AgentSchema });

/** Agent routes; each protocol's SDK loads on first use. */
export const agentRoutes: Routes = {
  "/api/agents/test": {
    POST: async (req, { service, llmTimeoutMs }) => {
      const { agent } = await readBody(req, TestBody);
      const options = { timeoutMs: llmTimeoutMs };
      const probe = agent.protocol === "a2a"
        ? (await import("../core/agents/a2a.ts")).testA2aAgent(agent, service.env, options)
        : (await import("../core/agents/agui.ts")).testAguiAgent(agent, service.env, options);
      const result = await probe;
      if (!result.ok && result.error) {
        const { agentSecrets } = await import("../core/agents/_agent_url.ts");
        const { scrubSecrets } = await import("../core/config/secrets.ts");
        result.error = scrubSecrets(result.error, agentSecrets(agent, service.env));
      }
      return json(result);
    },
  },
};
