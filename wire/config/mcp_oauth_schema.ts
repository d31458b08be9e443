/** The `oauth` field of a tool-server record: how Lass signs in to a remote server. */
import { z } from "zod";
import { hasEnvRef } from "./env_refs.ts";
import { HttpUrl, Secretish } from "./_record_fields.ts";

/**
 * How Lass obtains a tool server's OAuth tokens: a user in a browser (`authorization_code`), the
 * client alone (`client_credentials`), a workload's identity token (`jwt-bearer`, RFC 7523), or
 * the user's identity at the company's identity provider (`enterprise-managed`: RFC 8693 token
 * exchange for an identity assertion grant, then RFC 7523).
 */
export const OAUTH_GRANT_TYPES = [
  "authorization_code",
  "client_credentials",
  "jwt-bearer",
  "enterprise-managed",
] as const;

/** How a machine-to-machine client authenticates at the token endpoint. */
export const OAUTH_CLIENT_AUTH_METHODS = [
  "client_secret_basic",
  "client_secret_post",
  "private_key_jwt",
] as const;

/** JWT signing algorithms for `private_key_jwt` (asymmetric keys only). */
export const OAUTH_SIGNING_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
] as const;

/**
 * Where a token Lass presents comes from (a workload's JWT, the user's ID token): an env
 * reference, a file, or a command's output. Read again for each grant, so a rotated token is used.
 */
export const TokenSourceSchema = z.union([
  Secretish.refine(hasEnvRef, {
    message: "must be an env reference (env:NAME), or { file } or { command }: a token is not " +
      "kept in the config",
  }),
  z.strictObject({
    file: z.string().min(1).meta({ description: "A file holding the token (read on each use)" }),
  }),
  z.strictObject({
    command: z.string().min(1).meta({ description: "A program printing the token on stdout" }),
    args: z.array(z.string()).optional().meta({ description: "Its arguments" }),
  }),
]);

/** The company's identity provider of an `enterprise-managed` sign-in. */
const IdentityProvider = z.strictObject({
  issuer: HttpUrl.meta({ description: "The identity provider's issuer URL" }),
  tokenEndpoint: HttpUrl.optional().meta({
    description: "Its token endpoint; default: discovered from the issuer's metadata",
  }),
  clientId: z.string().min(1).meta({ description: "Lass's client id at the identity provider" }),
  clientSecret: Secretish.optional().meta({ description: "Lass's client secret there, if any" }),
  idToken: TokenSourceSchema.meta({
    description: "The user's ID token from the identity provider: env reference, { file } or " +
      "{ command }",
  }),
});

const OAuthObject = z.strictObject({
  clientId: z.string().optional(),
  clientSecret: Secretish.optional(),
  scopes: z.array(z.string()).optional(),
  grantType: z.enum(OAUTH_GRANT_TYPES).optional().meta({
    description: "`authorization_code` (default): the user signs in in a browser; " +
      "`client_credentials`: machine-to-machine (clientId and clientSecret or privateKey); " +
      "`jwt-bearer`: workload identity (clientId and assertion); `enterprise-managed`: the " +
      "user's identity at the company's identity provider (clientId, clientSecret, " +
      "identityProvider)",
  }),
  tokenEndpointAuthMethod: z.enum(OAUTH_CLIENT_AUTH_METHODS).optional().meta({
    description: "client_credentials, enterprise-managed: how the client authenticates at the " +
      "token endpoint; default private_key_jwt with a privateKey, else the secret method the " +
      "server lists",
  }),
  privateKey: Secretish.refine(hasEnvRef, {
    message: "must be an env reference (env:NAME): a private key is not kept in the config",
  }).optional().meta({
    description: "client_credentials with private_key_jwt: the PEM (PKCS #8) or JWK private " +
      "key, as an env reference",
  }),
  signingAlgorithm: z.enum(OAUTH_SIGNING_ALGORITHMS).optional().meta({
    description: "private_key_jwt: the JWT signing algorithm; default RS256",
  }),
  assertion: TokenSourceSchema.optional().meta({
    description: "jwt-bearer: the workload's JWT (env reference, { file } or { command }), " +
      "read again whenever a new access token is needed",
  }),
  identityProvider: IdentityProvider.optional().meta({
    description: "enterprise-managed: the identity provider that exchanges the user's ID token " +
      "for an identity assertion grant",
  }),
  dpop: z.boolean().optional().meta({
    description: "DPoP (RFC 9449) proof-of-possession tokens: `true` always, `false` never; " +
      "unset: when the authorization server offers them",
  }),
}).superRefine(checkOAuth);

/** `false` disables sign-in; `true` or an object describes it. */
export const OAuthSchema = z.union([z.boolean(), OAuthObject]);

/** The fields each grant type needs, and those that apply only to other grants. */
function checkOAuth(oauth: z.output<typeof OAuthObject>, ctx: z.RefinementCtx): void {
  const issue = (field: string, message: string) =>
    ctx.addIssue({ code: "custom", path: [field], message });
  const grant = oauth.grantType ?? "authorization_code";
  const only = (field: keyof typeof oauth, grants: string[]) => {
    if (oauth[field] !== undefined && !grants.includes(grant)) {
      issue(field, `applies only to grantType ${grants.join(" or ")}`);
    }
  };
  only("tokenEndpointAuthMethod", ["client_credentials", "enterprise-managed"]);
  only("privateKey", ["client_credentials", "enterprise-managed"]);
  only("signingAlgorithm", ["client_credentials", "enterprise-managed"]);
  only("assertion", ["jwt-bearer"]);
  only("identityProvider", ["enterprise-managed"]);
  if (grant === "authorization_code") return;
  if (!oauth.clientId) issue("clientId", `is required for grantType ${grant}`);
  if (grant === "jwt-bearer") {
    if (oauth.assertion === undefined) issue("assertion", "is required for grantType jwt-bearer");
    return;
  }
  if (grant === "enterprise-managed" && oauth.identityProvider === undefined) {
    issue("identityProvider", "is required for grantType enterprise-managed");
  }
  const method = oauth.tokenEndpointAuthMethod;
  if (method === "private_key_jwt" && !oauth.privateKey) {
    issue("privateKey", "is required for private_key_jwt");
  } else if (typeof method === "string" && method !== "private_key_jwt" && !oauth.clientSecret) {
    issue("clientSecret", `is required for ${method}`);
  } else if (!oauth.clientSecret && !oauth.privateKey) {
    issue("clientSecret", `${grant} needs clientSecret or privateKey`);
  }
  if (oauth.signingAlgorithm !== undefined && !oauth.privateKey) {
    issue("signingAlgorithm", "applies only with a privateKey");
  }
}
