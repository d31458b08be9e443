/**
 * `POST /api/llm/test` and `POST /api/llm/models`: the server's answer types, re-exported as types
 * only, so a browser bundle never contains server code.
 */
export type { ModelInfo, ModelList } from "../core/llm/models.ts";
export type { ProbeResult as ProfileProbe } from "../core/llm/probe.ts";
