/**
 * `POST /api/agents/test`: the server's answer type, re-exported as a type only, so a browser
 * bundle never contains server code.
 */
export type { AgentProbe } from "../core/agents/types.ts";
