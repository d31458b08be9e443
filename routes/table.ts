/**
 * Every route of the API, by path and method. The handler loads this table (and the route
 * modules with it) with its first request but a health check.
 */
import type { Routes } from "./context.ts";
import { healthRoutes } from "./health.ts";
import { homeRoutes } from "./home.ts";
import { agentRoutes } from "./agents.ts";
import { assetRoutes } from "./assets.ts";
import { bootstrapRoutes } from "./bootstrap.ts";
import { catalogRoutes } from "./catalogs.ts";
import { chatRoutes } from "./chat.ts";
import { configRoutes } from "./config.ts";
import { conformanceRoutes } from "./conformance.ts";
import { evalRoutes } from "./evals.ts";
import { eventRoutes } from "./events.ts";
import { exportRoutes } from "./export.ts";
import { interactionRoutes } from "./interactions.ts";
import { llmRoutes } from "./llm.ts";
import { mcpRoutes } from "./mcp.ts";
import { oauthRoutes } from "./oauth.ts";
import { proxyRoutes } from "./proxy.ts";
import { recordingRoutes } from "./recordings.ts";
import { registryRoutes } from "./registry.ts";
import { sessionRoutes } from "./sessions.ts";
import { skillRoutes } from "./skills.ts";
import { uiRoutes } from "./ui.ts";

/** Every route of the API, by path and method. */
export const ROUTES: Routes = {
  ...homeRoutes,
  ...assetRoutes,
  ...healthRoutes,
  ...agentRoutes,
  ...bootstrapRoutes,
  ...catalogRoutes,
  ...chatRoutes,
  ...configRoutes,
  ...conformanceRoutes,
  ...evalRoutes,
  ...eventRoutes,
  ...exportRoutes,
  ...interactionRoutes,
  ...llmRoutes,
  ...mcpRoutes,
  ...oauthRoutes,
  ...proxyRoutes,
  ...recordingRoutes,
  ...registryRoutes,
  ...sessionRoutes,
  ...skillRoutes,
  ...uiRoutes,
};
