/**
 * An attempt's exchanges as the steps of a sign-in: each step's status, what was expected, and
 * for a failed step the rule it broke and the fix (from {@link ./trace_rules.ts}).
 */
import {
  SIGN_IN_STEPS,
  type SignInStep,
  type SignInStepName,
  type SignInTrace,
} from "../../../wire/oauth_trace.ts";
import { type Attempt, lastMetadata, type TraceEntry } from "./trace_attempt.ts";
import { isMetadataDocumentUrl } from "./client_kind.ts";
import {
  checkAuthorizationRequest,
  checkAuthorizedRequest,
  checkRegistration,
  checkResourceMetadata,
  checkServerMetadata,
  checkTokenAnswer,
  type Verdict,
} from "./trace_rules.ts";

const TITLES: Record<SignInStepName, string> = {
  "protected-resource-metadata": "Protected-resource metadata",
  "authorization-server-metadata": "Authorization server metadata",
  registration: "Client registration",
  authorization: "Authorization request (PKCE)",
  callback: "Callback",
  token: "Token request",
  "authorized-request": "First authorized MCP request",
  refresh: "Refresh",
};

/** A step's own verdict before its place in the sequence is weighed; `undefined`: no exchange. */
type Outcome = Verdict & { waiting?: boolean; skipped?: boolean };

/** The steps of an attempt, in order. */
export function describeAttempt(attempt: Attempt): SignInTrace {
  const { settings } = attempt;
  const machine = settings.grantType !== undefined;
  const byStep = new Map<SignInStepName, TraceEntry[]>(SIGN_IN_STEPS.map((step) => [step, []]));
  for (const entry of attempt.entries) byStep.get(entry.step)!.push(entry);
  const outcomes = new Map<SignInStepName, Outcome | undefined>();
  for (const step of SIGN_IN_STEPS) {
    outcomes.set(step, outcomeOf(step, byStep.get(step)!, attempt, machine));
  }
  const order = [...SIGN_IN_STEPS];
  let failedAt = order.findIndex((step) => outcomes.get(step)?.ok === false);
  const lastSeen = order.findLastIndex((step) => outcomes.get(step) !== undefined);
  // The connection reported a failure no rule explains: it stopped at the first step not done.
  if (failedAt < 0 && attempt.error) {
    const stopped = order.findIndex((step, index) => {
      const outcome = outcomes.get(step);
      return outcome === undefined ? index > lastSeen || !optional(step, machine) : outcome.waiting;
    });
    if (stopped >= 0) {
      failedAt = stopped;
      outcomes.set(order[stopped], {
        ...outcomes.get(order[stopped]),
        ok: false,
        fix: `Lass's OAuth client stopped here: ${attempt.error}`,
      });
    }
  }
  const steps = order.map((step, index): SignInStep => {
    const outcome = outcomes.get(step);
    const exchanges = byStep.get(step)!.map((entry) => entry.exchange);
    const base = { step, title: TITLES[step], exchanges, expected: expectation(step, attempt) };
    const detail = outcome?.detail;
    if (outcome && !outcome.ok) {
      return {
        ...base,
        status: "failed",
        ...(detail && { detail }),
        ...(outcome.rule && { rule: outcome.rule }),
        ...(outcome.fix && { fix: outcome.fix }),
      };
    }
    if (outcome?.skipped) return { ...base, status: "skipped", ...(detail && { detail }) };
    if (outcome?.waiting) return { ...base, status: "pending", ...(detail && { detail }) };
    if (outcome) return { ...base, status: "ok", ...(detail && { detail }) };
    if (failedAt >= 0 && index > failedAt) {
      return { ...base, status: "skipped", detail: "not reached: an earlier step failed" };
    }
    if (index < lastSeen || (step === "refresh" && attempt.authorized)) {
      return { ...base, status: "skipped", detail: skippedBecause(step, machine) };
    }
    return { ...base, status: "pending" };
  });
  return {
    serverId: settings.serverId,
    startedAt: attempt.startedAt,
    ...(attempt.error && { error: attempt.error }),
    steps,
  };
}

/** Steps a sign-in may do without (their absence before a later step is no failure). */
function optional(step: SignInStepName, machine: boolean): boolean {
  if (step === "refresh" || step === "registration" || step === "protected-resource-metadata") {
    return true;
  }
  return machine && (step === "authorization" || step === "callback");
}

/** The verdict on one step from its entries; `undefined` when it had none. */
function outcomeOf(
  step: SignInStepName,
  entries: TraceEntry[],
  attempt: Attempt,
  machine: boolean,
): Outcome | undefined {
  const { settings } = attempt;
  const exchanges = entries.map((entry) => entry.exchange);
  const answered = (entry: TraceEntry) => (entry.exchange.response?.status ?? 0);
  const ok2xx = entries.filter((entry) => answered(entry) >= 200 && answered(entry) < 300);
  switch (step) {
    case "protected-resource-metadata": {
      const reads = entries.filter((entry) => !entry.challenge);
      const found = ok2xx.find((entry) => !entry.challenge);
      if (found) return checkResourceMetadata(found.exchange, settings);
      if (reads.length === 0) return entries.length > 0 ? { ok: true, waiting: true } : undefined;
      const failedNetwork = reads.find((entry) => entry.exchange.error);
      if (lastMetadata(attempt)) {
        return {
          ok: true,
          skipped: true,
          detail: "no protected-resource metadata (a 2025-03-26 server): the server's origin " +
            "is taken as its authorization server",
        };
      }
      return {
        ok: false,
        rule: "RFC 9728 §3 and the MCP authorization spec: the server must publish " +
          "protected-resource metadata (at the URL its 401 names in resource_metadata, or at " +
          "the well-known URL)",
        fix: failedNetwork
          ? `Lass could not reach ${failedNetwork.exchange.url}: ${failedNetwork.exchange.error}`
          : `Serve the metadata at one of: ${reads.map((entry) => entry.exchange.url).join(", ")}.`,
      };
    }
    case "authorization-server-metadata": {
      if (exchanges.length === 0) return undefined;
      const found = ok2xx.at(-1);
      const hasResourceMetadata = attempt.entries.some((entry) =>
        entry.step === "protected-resource-metadata" && !entry.challenge &&
        answered(entry) >= 200 && answered(entry) < 300
      );
      if (found) return checkServerMetadata(found.exchange, hasResourceMetadata);
      return {
        ok: false,
        rule: "RFC 8414 §3.1 (and OpenID Connect Discovery §4): the authorization server must " +
          "serve its metadata at a well-known URL built from its issuer",
        fix: `Serve the metadata at one of: ${
          exchanges.map((exchange) => exchange.url).join(", ")
        }, or name the right issuer in the protected-resource metadata's authorization_servers.`,
      };
    }
    case "registration": {
      const last = exchanges.at(-1);
      if (last) return checkRegistration(last, settings);
      if (machine) return { ok: true, skipped: true, detail: "not used by this grant" };
      const authorization = attempt.entries.find((entry) => entry.step === "authorization");
      if (!authorization) return undefined;
      const clientId = URL.parse(authorization.exchange.url)?.searchParams.get("client_id");
      if (clientId && clientId === settings.clientId) {
        return {
          ok: true,
          detail: isMetadataDocumentUrl(clientId)
            ? `client ID metadata document: the client_id is the URL ${clientId}`
            : `pre-registered client ${clientId} (oauth.clientId of the record)`,
        };
      }
      return {
        ok: true,
        detail: `a registration kept from an earlier sign-in: client_id ${clientId}`,
      };
    }
    case "authorization": {
      const last = exchanges.at(-1);
      if (!last) {
        return machine ? { ok: true, skipped: true, detail: "not used by this grant" } : undefined;
      }
      const verdict = checkAuthorizationRequest(last, settings);
      const called = attempt.entries.some((entry) => entry.step === "callback");
      return verdict.ok && !called ? { ...verdict, waiting: true } : verdict;
    }
    case "callback": {
      const last = entries.at(-1);
      if (!last) {
        return machine ? { ok: true, skipped: true, detail: "not used by this grant" } : undefined;
      }
      if (last.problem) return { ok: false, rule: last.problem.rule, fix: last.problem.fix };
      return { ok: true, detail: "state known and unused; iss checked (RFC 9207)" };
    }
    case "token":
    case "refresh": {
      const grants = exchanges.filter((exchange) =>
        exchange.method === "POST" && isGrant(exchange)
      );
      // The answer that counts: the last success, else the first failure (a retry of a spent
      // code, which the SDK sends after a refusal, only repeats it).
      const counted = grants.findLast((exchange) =>
        (exchange.response?.status ?? 0) < 300 &&
        !exchange.error
      ) ?? grants[0];
      if (step === "refresh") return refreshOutcome(entries, counted, attempt);
      if (!counted) return undefined;
      if (counted.error) return networkFailure(counted);
      return checkTokenAnswer(counted, settings, false);
    }
    case "authorized-request": {
      const last = exchanges.at(-1);
      if (!last) return undefined;
      return checkAuthorizedRequest(last, settings);
    }
  }
}

function refreshOutcome(
  entries: TraceEntry[],
  grant: TraceEntry["exchange"] | undefined,
  attempt: Attempt,
): Outcome | undefined {
  if (entries.length === 0) return undefined;
  if (!grant) {
    return {
      ok: true,
      skipped: true,
      detail: "the server refused the token (401) and there is no refresh token: Lass asks for " +
        "sign-in again",
    };
  }
  if (grant.error) return networkFailure(grant);
  const verdict = checkTokenAnswer(grant, attempt.settings, true);
  if (!verdict.ok) return verdict;
  const retry = entries.at(-1)!.exchange;
  if (retry === grant) return verdict;
  const status = retry.response?.status ?? 0;
  return status >= 200 && status < 300
    ? { ...verdict, detail: `${verdict.detail}; the request went through again` }
    : checkAuthorizedRequest(retry, attempt.settings);
}

function isGrant(exchange: TraceEntry["exchange"]): boolean {
  return new URLSearchParams(exchange.request.body ?? "").has("grant_type");
}

function networkFailure(exchange: TraceEntry["exchange"]): Outcome {
  return {
    ok: false,
    rule: "RFC 6749 §3.2: the token endpoint must be reachable",
    fix: `Lass could not reach ${exchange.url}: ${exchange.error}`,
  };
}

/** Why a step before the last one seen had no exchange. */
function skippedBecause(step: SignInStepName, machine: boolean): string {
  if (step === "refresh") {
    return "not needed yet: when the access token expires and the server answers 401, Lass " +
      "refreshes it";
  }
  if (machine && (step === "authorization" || step === "callback" || step === "registration")) {
    return "not used by this grant";
  }
  if (step === "protected-resource-metadata" || step === "authorization-server-metadata") {
    return "kept from an earlier sign-in (the discovery state in the token store)";
  }
  return "not needed in this attempt";
}

/** What Lass expects at a step. */
function expectation(step: SignInStepName, attempt: Attempt): string {
  const { serverUrl, redirectUrl, grantType } = attempt.settings;
  switch (step) {
    case "protected-resource-metadata":
      return `A request without a token is answered 401 with WWW-Authenticate: Bearer ` +
        `resource_metadata="…" (RFC 9728 §5.1); that URL (else the well-known one) answers JSON ` +
        `whose resource is ${serverUrl} and whose authorization_servers names the issuer.`;
    case "authorization-server-metadata":
      return "The issuer's well-known URL (RFC 8414 oauth-authorization-server or OpenID " +
        "openid-configuration) answers JSON whose issuer is that issuer exactly (RFC 8414 §3.3), " +
        "with authorization_endpoint, token_endpoint and code_challenge_methods_supported S256.";
    case "registration":
      return grantType
        ? `The client of the record (${grantType}) authenticates at the token endpoint.`
        : "The record's oauth.clientId (pre-registered, or a client ID metadata document URL " +
          "where the server supports them); else dynamic registration (RFC 7591) answers 201 with " +
          `a client_id for the redirect URI ${redirectUrl}.`;
    case "authorization":
      return "The user opens the authorization URL (response_type=code, PKCE S256 code_challenge, " +
        `state, resource ${serverUrl}) in the browser and signs in; the authorization server ` +
        `redirects to ${redirectUrl}. An error page there instead (an unregistered redirect URI, ` +
        "an unknown client) means the server refuses the request (RFC 6749 §4.1.2.1).";
    case "callback":
      return "The browser comes back with code, the state Lass issued (one use, 10 minutes) and " +
        "iss, the authorization server's issuer (RFC 9207).";
    case "token":
      return grantType
        ? `The token endpoint answers grant_type=${grantType} with access_token and token_type.`
        : "The token endpoint exchanges the code (grant_type=authorization_code, the same " +
          "redirect_uri, the PKCE code_verifier, resource) for access_token, token_type and " +
          "usually refresh_token (RFC 6749 §4.1.3, §5.1).";
    case "authorized-request":
      return `An MCP request to ${serverUrl} with Authorization: Bearer <token> is answered 2xx.`;
    case "refresh":
      return "When the server answers 401 to an expired token, Lass sends grant_type=" +
        "refresh_token (RFC 6749 §6), gets new tokens, and the request goes through again.";
  }
}
