/** One recorded sign-in attempt of one server: its settings, its exchanges by step, and readers. */
import type { SignInExchange, SignInStepName } from "../../../wire/oauth_trace.ts";
import type { SecretValues } from "./trace_mask.ts";

/** What the trace knows of a server's sign-in settings. */
export interface TraceSettings {
  serverId: string;
  /** The MCP endpoint. */
  serverUrl: string;
  /** Lass's callback URL (browser sign-in). */
  redirectUrl?: string;
  /** The record's `oauth.clientId` (pre-registered, or a client ID metadata document URL). */
  clientId?: string;
  /** The record's client secret, masked wherever it appears. */
  clientSecret?: string;
  /** `oauth.grantType`; absent for the browser sign-in. */
  grantType?: string;
}

/** A problem found while recording (the callback's checks), with the rule it broke. */
export interface RecordedProblem {
  rule: string;
  fix: string;
}

/** One recorded exchange and the step it belongs to. */
export interface TraceEntry {
  step: SignInStepName;
  exchange: SignInExchange;
  /** A 401 to an MCP request that carried no token: the challenge that starts a sign-in. */
  challenge?: boolean;
  problem?: RecordedProblem;
}

/** One sign-in attempt of one server. */
export interface Attempt {
  settings: TraceSettings;
  startedAt: string;
  entries: TraceEntry[];
  secrets: SecretValues;
  error?: string;
  /** When the authorization URL was handed out and no callback came yet (epoch ms). */
  waitingSince?: number;
  /** The authorization server metadata read last (a 2xx JSON answer). */
  metadata?: Record<string, unknown>;
  /** A token request answered with an access token. */
  granted?: boolean;
  /** The first authorized MCP request answered 2xx. */
  authorized?: boolean;
  /** A refresh was recorded and the request retried after it not yet. */
  retryAfterRefresh?: boolean;
}

/** The authorization server metadata the attempt read last (JSON of a 2xx answer). */
export function lastMetadata(attempt: Attempt): Record<string, unknown> | undefined {
  return attempt.metadata;
}

/** A JSON object body, or `undefined`. */
export function jsonOf(body: string | undefined): Record<string, unknown> | undefined {
  if (!body) return undefined;
  try {
    const value = JSON.parse(body);
    return value && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
