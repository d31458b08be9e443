/**
 * The rules each step of a sign-in is checked against, read from the recorded (masked) exchanges:
 * a verdict says whether the step's exchange is right and, if not, which rule (RFC and section) it
 * broke and what to change on the server or in the record.
 */
import type { SignInExchange } from "../../../wire/oauth_trace.ts";
import { jsonOf, type TraceSettings } from "./trace_attempt.ts";

/** The verdict on one step's exchange. */
export interface Verdict {
  ok: boolean;
  detail?: string;
  rule?: string;
  fix?: string;
}

const ok = (detail?: string): Verdict => ({ ok: true, ...(detail && { detail }) });
const broken = (rule: string, fix: string, detail?: string): Verdict => ({
  ok: false,
  rule,
  fix,
  ...(detail && { detail }),
});

const status = (exchange: SignInExchange) => exchange.response?.status ?? 0;
const success = (exchange: SignInExchange) => status(exchange) >= 200 && status(exchange) < 300;

/** Protected-resource metadata (RFC 9728) of a 2xx answer. */
export function checkResourceMetadata(
  exchange: SignInExchange,
  settings: TraceSettings,
): Verdict {
  const body = jsonOf(exchange.response?.body);
  if (!body) {
    return broken(
      "RFC 9728 §3.2: protected-resource metadata is a JSON object",
      "Serve the metadata as JSON (content-type application/json).",
    );
  }
  const resource = typeof body.resource === "string" ? body.resource : undefined;
  if (!resource || !resourceCovers(resource, settings.serverUrl)) {
    return broken(
      "RFC 9728 §3.3: the metadata's resource must be the protected resource's identifier " +
        "(the URL Lass connects to, or a URL it lies under)",
      `Make the protected-resource metadata say "resource": "${settings.serverUrl}" (it says ${
        JSON.stringify(resource ?? null)
      }), or correct the record's url if the server lives elsewhere.`,
    );
  }
  const servers = body.authorization_servers;
  if (!Array.isArray(servers) || servers.length === 0) {
    return broken(
      "RFC 9728 §2 and the MCP authorization spec: authorization_servers must name at least one " +
        "authorization server",
      'Add "authorization_servers": ["<the issuer of your authorization server>"] to the metadata.',
    );
  }
  return ok(`resource ${resource}; authorization server ${servers[0]}`);
}

/** Authorization server metadata (RFC 8414, or OpenID Connect Discovery) of a 2xx answer. */
export function checkServerMetadata(exchange: SignInExchange, checkIssuer: boolean): Verdict {
  const body = jsonOf(exchange.response?.body);
  if (!body) {
    return broken(
      "RFC 8414 §3.2: authorization server metadata is a JSON object",
      "Serve the metadata as JSON (content-type application/json).",
    );
  }
  const expected = issuerOfMetadataUrl(exchange.url);
  const issuer = typeof body.issuer === "string" ? body.issuer : undefined;
  if (checkIssuer && expected && (!issuer || !sameIssuer(issuer, expected))) {
    return broken(
      "RFC 8414 §3.3: the issuer in the metadata must be identical to the issuer whose " +
        `well-known URL was read (${expected})`,
      `Make the authorization server's metadata say "issuer": "${expected}" (it says ${
        JSON.stringify(issuer ?? null)
      }), or make the protected-resource metadata name the issuer the authorization server ` +
        "really has in authorization_servers.",
    );
  }
  for (const field of ["authorization_endpoint", "token_endpoint"]) {
    if (typeof body[field] !== "string") {
      return broken(
        `RFC 8414 §2: the metadata must give ${field}`,
        `Add "${field}" to the authorization server's metadata.`,
      );
    }
  }
  const methods = body.code_challenge_methods_supported;
  if (Array.isArray(methods) && !methods.includes("S256")) {
    return broken(
      "RFC 7636 §4.2 and the MCP authorization spec: PKCE with S256 is required, and " +
        "code_challenge_methods_supported does not list S256",
      'Support PKCE S256 and list it: "code_challenge_methods_supported": ["S256"].',
    );
  }
  const notes = [`issuer ${issuer}`];
  if (!Array.isArray(methods)) {
    notes.push("no code_challenge_methods_supported (PKCE S256 assumed)");
  }
  if (typeof body.registration_endpoint !== "string") notes.push("no registration_endpoint");
  return ok(notes.join("; "));
}

/** Dynamic client registration (RFC 7591). */
export function checkRegistration(exchange: SignInExchange, settings: TraceSettings): Verdict {
  const body = jsonOf(exchange.response?.body);
  if (!success(exchange)) {
    const error = typeof body?.error === "string" ? body.error : undefined;
    const fix = error === "invalid_redirect_uri"
      ? `The authorization server must accept the loopback redirect URI ${settings.redirectUrl} ` +
        "(RFC 8252 §7.3 allows any port on loopback)."
      : error === "invalid_client_metadata"
      ? "The authorization server must accept a public client (token_endpoint_auth_method " +
        '"none") with the grant types authorization_code and refresh_token.'
      : "Fix the registration endpoint, or register Lass with the authorization server yourself " +
        "and set oauth.clientId (and oauth.clientSecret) in the record.";
    return broken(
      `RFC 7591 §3.2.2: the registration was refused (${
        error ? `error=${error}` : `HTTP ${status(exchange)}`
      })`,
      fix,
    );
  }
  if (typeof body?.client_id !== "string") {
    return broken(
      "RFC 7591 §3.2.1: a registration answer must carry the client_id",
      "Answer the registration with the client information, client_id included.",
    );
  }
  const uris = body.redirect_uris;
  if (settings.redirectUrl && Array.isArray(uris) && !uris.includes(settings.redirectUrl)) {
    return broken(
      "RFC 7591 §3.2.1 and RFC 6749 §3.1.2.3: the registered redirect_uris must keep the one " +
        "the client asked for",
      `Register exactly ${settings.redirectUrl} for the client (the answer lists ${
        JSON.stringify(uris)
      }).`,
    );
  }
  return ok(`dynamic registration: client_id ${body.client_id}`);
}

/** The authorization request the browser opens (RFC 6749 §4.1.1, RFC 7636, RFC 8707). */
export function checkAuthorizationRequest(
  exchange: SignInExchange,
  settings: TraceSettings,
): Verdict {
  const query = URL.parse(exchange.url)?.searchParams ?? new URLSearchParams();
  if (query.get("response_type") !== "code") {
    return broken(
      "RFC 6749 §4.1.1: response_type must be code",
      "Lass always asks for code; report this.",
    );
  }
  if (query.get("code_challenge_method") !== "S256" || !query.get("code_challenge")) {
    return broken(
      "RFC 7636 §4.3: the authorization request carries code_challenge with method S256",
      "Lass always sends PKCE S256; report this.",
    );
  }
  if (settings.redirectUrl && query.get("redirect_uri") !== settings.redirectUrl) {
    return broken(
      "RFC 6749 §3.1.2: redirect_uri is Lass's callback",
      `Lass listens at ${settings.redirectUrl}; report this.`,
    );
  }
  const parts = [
    `client_id ${query.get("client_id")}`,
    `redirect_uri ${query.get("redirect_uri")}`,
  ];
  if (query.get("scope")) parts.push(`scope ${query.get("scope")}`);
  if (query.get("resource")) parts.push(`resource ${query.get("resource")} (RFC 8707)`);
  return ok(parts.join("; "));
}

/** A token answer (RFC 6749 §5.1 / §5.2): the code exchange, a machine grant, or a refresh. */
export function checkTokenAnswer(
  exchange: SignInExchange,
  settings: TraceSettings,
  refresh: boolean,
): Verdict {
  const body = jsonOf(exchange.response?.body);
  if (success(exchange)) {
    if (typeof body?.access_token !== "string" || typeof body?.token_type !== "string") {
      return broken(
        "RFC 6749 §5.1: a token answer carries access_token and token_type",
        "Answer the token request with access_token and token_type.",
      );
    }
    const parts = [`token_type ${body.token_type}`];
    if (typeof body.expires_in === "number") parts.push(`expires_in ${body.expires_in} s`);
    parts.push(body.refresh_token ? "with a refresh token" : "no refresh token");
    if (typeof body.scope === "string" && body.scope) parts.push(`scope ${body.scope}`);
    return ok(parts.join("; "));
  }
  const error = typeof body?.error === "string" ? body.error : undefined;
  const description = typeof body?.error_description === "string" ? body.error_description : "";
  const form = new URLSearchParams(exchange.request.body ?? "");
  if (error === "invalid_grant" && refresh) {
    return broken(
      "RFC 6749 §6 and §5.2: invalid_grant: the refresh token is invalid, expired, revoked or " +
        "was already used (rotated)",
      "Sign in again. If refreshes fail soon after each sign-in, check the refresh tokens' " +
        "lifetime and rotation on the authorization server.",
    );
  }
  if (error === "invalid_grant" && /redirect/i.test(description)) {
    return broken(
      "RFC 6749 §4.1.3: redirect_uri of the token request must be identical to the one of the " +
        "authorization request",
      `Lass sent redirect_uri ${
        form.get("redirect_uri") ?? settings.redirectUrl
      } in both requests: the authorization server must compare with the redirect_uri the code ` +
        "was issued for, character for character (no rewriting of host, port or trailing slash), " +
        "and the client's registered redirect URIs must include it.",
    );
  }
  if (error === "invalid_grant" && /verifier|pkce|challenge/i.test(description)) {
    return broken(
      "RFC 7636 §4.6: the code_verifier must hash (S256) to the code_challenge of the " +
        "authorization request",
      "The authorization server must compare BASE64URL(SHA-256(code_verifier)) with the " +
        "code_challenge it stored with the code.",
    );
  }
  if (error === "invalid_grant") {
    return broken(
      "RFC 6749 §5.2: invalid_grant: the authorization code is invalid, expired, revoked, " +
        "already used, or issued to another client (codes are single-use and short-lived, " +
        "RFC 6749 §4.1.2)",
      "Sign in again and finish promptly. If a fresh code fails too, the authorization server " +
        "expires codes too early, spends them twice, or binds them to another client or " +
        "redirect URI.",
      description ? `the server said: ${description}` : undefined,
    );
  }
  if (error === "invalid_client") {
    return broken(
      "RFC 6749 §5.2: invalid_client: client authentication failed",
      "Check oauth.clientId and oauth.clientSecret in the record, and that the token endpoint " +
        "accepts the method Lass used (token_endpoint_auth_methods_supported).",
    );
  }
  if (error === "invalid_target") {
    return broken(
      `RFC 8707 §2: invalid_target: the resource ${form.get("resource")} is not accepted`,
      `The authorization server must issue tokens for the MCP server's URL ${settings.serverUrl}.`,
    );
  }
  return broken(
    `RFC 6749 §5.2: the token request was refused (${
      error ? `error=${error}` : `HTTP ${status(exchange)}`
    })`,
    error === "invalid_scope"
      ? "Ask for scopes the server offers: set oauth.scopes in the record, or fix scopes_supported."
      : "Read the answer's error and error_description; fix the authorization server or the " +
        "record's oauth settings accordingly.",
  );
}

/** An MCP request carrying the token (RFC 6750). */
export function checkAuthorizedRequest(exchange: SignInExchange, settings: TraceSettings): Verdict {
  if (success(exchange)) return ok(`HTTP ${status(exchange)}: the server took the token`);
  const challenge = exchange.response?.headers["www-authenticate"] ?? "";
  if (status(exchange) === 403) {
    return broken(
      "RFC 6750 §3.1: insufficient_scope: the token lacks a scope this request needs",
      "Grant the scope the challenge names, or ask for it with oauth.scopes in the record.",
      challenge ? `challenge: ${challenge}` : undefined,
    );
  }
  if (status(exchange) === 401) {
    return broken(
      "RFC 6750 §3.1: invalid_token: the server refused the access token it was just issued",
      "The MCP server must accept tokens of its authorization server issued for its URL " +
        `${settings.serverUrl} (RFC 8707 audience): check the audience and issuer it expects.`,
      challenge ? `challenge: ${challenge}` : undefined,
    );
  }
  return broken(
    "MCP transports: a request with a valid token is answered like any other (2xx)",
    `The server answered HTTP ${status(exchange)}; its log says why.`,
  );
}

/** The issuer a well-known metadata URL was built from (RFC 8414 §3.1, OpenID Discovery §4). */
export function issuerOfMetadataUrl(url: string): string | undefined {
  const parsed = URL.parse(url);
  if (!parsed) return undefined;
  const path = parsed.pathname;
  for (const name of ["oauth-authorization-server", "openid-configuration"]) {
    const inserted = `/.well-known/${name}`;
    if (path.startsWith(inserted)) return parsed.origin + path.slice(inserted.length);
    if (path.endsWith(inserted)) return parsed.origin + path.slice(0, -inserted.length);
  }
  return undefined;
}

function sameIssuer(a: string, b: string): boolean {
  return a === b || a === b.replace(/\/$/, "") || b === a.replace(/\/$/, "");
}

/** Whether a metadata `resource` covers the server's URL (the same, or a prefix of its path). */
function resourceCovers(resource: string, serverUrl: string): boolean {
  const a = URL.parse(resource);
  const b = URL.parse(serverUrl);
  if (!a || !b || a.origin !== b.origin) return false;
  const prefix = a.pathname.endsWith("/") ? a.pathname : `${a.pathname}/`;
  const path = b.pathname.endsWith("/") ? b.pathname : `${b.pathname}/`;
  return path.startsWith(prefix);
}
