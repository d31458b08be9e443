/** What every route handler gets besides the request. */
import type { Service } from "../core/service.ts";
import type { RouteTable } from "./router.ts";

/** The per-request context of a route handler. */
export interface RouteContext {
  service: Service;
  url: URL;
  /** Interval of event-stream heartbeats. */
  heartbeatMs: number;
  /** Lass's version, for health and bootstrap. */
  version: string;
  /** Deadline of model tests and model lists. */
  llmTimeoutMs: number;
  /** The origin of the sandbox port (MCP Apps), when Lass runs with one. */
  sandboxOrigin?: string;
  /** Settles when the web UI's files are up to date; it never rejects. */
  uiReady?: Promise<unknown>;
}

/** The routes of one resource module. */
export type Routes = RouteTable<RouteContext>;
