/**
 * The record of `GET /api/mcp/:id/oauth/trace`: a remote tool server's last OAuth sign-in attempt,
 * step by step, with the HTTP exchanges Lass saw (secrets masked).
 */

/** The steps of a sign-in, in order. */
export const SIGN_IN_STEPS = [
  "protected-resource-metadata",
  "authorization-server-metadata",
  "registration",
  "authorization",
  "callback",
  "token",
  "authorized-request",
  "refresh",
] as const;

/** One step of a sign-in. */
export type SignInStepName = typeof SIGN_IN_STEPS[number];

/**
 * `ok` done as expected; `failed` done against a rule (see `rule` and `fix`); `pending` waiting
 * (for the user's sign-in in the browser, or not reached yet while the attempt goes on);
 * `skipped` not needed in this attempt (or not reached after a failure).
 */
export type SignInStepStatus = "ok" | "failed" | "skipped" | "pending";

/** One side of an exchange: headers and body as Lass saw them, secrets masked. */
export interface ExchangeMessage {
  headers: Record<string, string>;
  /** The body as text (JSON, a form, HTML), at most 8 KiB; absent when there was none. */
  body?: string;
}

/** One HTTP exchange of a sign-in. */
export interface SignInExchange {
  /** When the request went out (ISO 8601). */
  at: string;
  /**
   * `lass`: Lass sent it; `browser`: the user's browser opens it (the authorization request,
   * not sent by Lass); `callback`: the browser came back to Lass's `/oauth/callback`.
   */
  by: "lass" | "browser" | "callback";
  method: string;
  /** The URL, secret query parameters (`code`, `state`, tokens) masked. */
  url: string;
  request: ExchangeMessage;
  /** The answer; absent when none came (a network error, or a browser request). */
  response?: ExchangeMessage & { status: number };
  /** Why no answer came (a network error). */
  error?: string;
  /** Milliseconds until the answer's headers came. */
  ms?: number;
}

/** One step of the last sign-in attempt. */
export interface SignInStep {
  step: SignInStepName;
  /** The step's name for people ("Authorization server metadata"). */
  title: string;
  status: SignInStepStatus;
  exchanges: SignInExchange[];
  /** What Lass expects at this step, in one or two sentences. */
  expected: string;
  /** What this attempt did at the step (the client registration used, the token's lifetime, ...). */
  detail?: string;
  /** On a failed step: the rule broken, with its RFC and section ("RFC 8414 §3.3: ..."). */
  rule?: string;
  /** On a failed step: what to change on the server or in the record. */
  fix?: string;
}

/** The answer of `GET /api/mcp/:id/oauth/trace`. */
export interface SignInTrace {
  serverId: string;
  /** When the attempt began (its first exchange); absent when there was none since Lass started. */
  startedAt?: string;
  /** The sign-in error the connection reported, secrets taken out. */
  error?: string;
  /** The steps in order; empty when no attempt was recorded. */
  steps: SignInStep[];
}
