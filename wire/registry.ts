/**
 * The MCP Registry on the wire: `server.json` (the registry's record of a server) and the
 * registry API's answers, read tolerantly (unknown fields are kept), and the answers of Lass's
 * own `/api/registry/*` routes. Shapes after the registry's `openapi.yaml` and
 * `server.schema.json` (modelcontextprotocol/registry, `docs/reference/`).
 */
import { z } from "zod";

/** One input of a package or remote: a value, a default, whether it is required or secret. */
export const RegistryInputSchema = z.looseObject({
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  format: z.string().optional(),
  value: z.string().optional(),
  isSecret: z.boolean().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).nullish(),
});

/** An input whose `value` may hold `{name}` placeholders filled from `variables`. */
const InputWithVariables = RegistryInputSchema.extend({
  variables: z.record(z.string(), RegistryInputSchema).optional(),
});

/** An argument of a package or of its runtime: positional (a value) or named (`--flag value`). */
export const RegistryArgumentSchema = InputWithVariables.extend({
  type: z.string(),
  name: z.string().optional(),
  valueHint: z.string().optional(),
  isRepeated: z.boolean().optional(),
});

/** An environment variable of a package or a header of a remote. */
export const RegistryKeyValueSchema = InputWithVariables.extend({ name: z.string() });

/** How a package or remote is reached: `stdio`, `streamable-http` or `sse` (with a URL). */
export const RegistryTransportSchema = z.looseObject({
  type: z.string(),
  url: z.string().optional(),
  headers: z.array(RegistryKeyValueSchema).optional(),
  variables: z.record(z.string(), RegistryInputSchema).optional(),
});

/** A package a client installs and runs: npm, pypi, oci, nuget or mcpb. */
export const RegistryPackageSchema = z.looseObject({
  registryType: z.string(),
  registryBaseUrl: z.string().optional(),
  identifier: z.string(),
  version: z.string().optional(),
  fileSha256: z.string().optional(),
  runtimeHint: z.string().optional(),
  transport: RegistryTransportSchema.optional(),
  runtimeArguments: z.array(RegistryArgumentSchema).optional(),
  packageArguments: z.array(RegistryArgumentSchema).optional(),
  environmentVariables: z.array(RegistryKeyValueSchema).optional(),
});

/** A `server.json`: a server's name, description, version, packages and remotes. */
export const ServerJsonSchema = z.looseObject({
  $schema: z.string().optional(),
  name: z.string().min(1),
  description: z.string().optional(),
  title: z.string().optional(),
  version: z.string().optional(),
  websiteUrl: z.string().optional(),
  repository: z.looseObject({ url: z.string().optional(), source: z.string().optional() })
    .optional(),
  packages: z.array(RegistryPackageSchema).optional(),
  remotes: z.array(RegistryTransportSchema).optional(),
});

/** The official registry's metadata of one server version. */
export const OfficialMetaSchema = z.looseObject({
  status: z.string().optional(),
  statusMessage: z.string().optional(),
  publishedAt: z.string().optional(),
  updatedAt: z.string().optional(),
  isLatest: z.boolean().optional(),
});

/** The key of the official metadata in a listed server's `_meta`. */
export const OFFICIAL_META = "io.modelcontextprotocol.registry/official";

/** One server version as the registry lists it: its `server.json` and the registry's metadata. */
export const ServerResponseSchema = z.looseObject({
  server: ServerJsonSchema,
  _meta: z.looseObject({ [OFFICIAL_META]: OfficialMetaSchema.optional() }).optional(),
});

/** A page of the registry's server list (each server is read on its own, see the client). */
export const ServerListSchema = z.looseObject({
  servers: z.array(z.unknown()),
  metadata: z.looseObject({
    nextCursor: z.string().nullish(),
    count: z.number().optional(),
  }).optional(),
});

/** A `server.json` as read. */
export type ServerJson = z.output<typeof ServerJsonSchema>;
/** A package of a `server.json`. */
export type RegistryPackage = z.output<typeof RegistryPackageSchema>;
/** A remote (or a package's transport) of a `server.json`. */
export type RegistryTransport = z.output<typeof RegistryTransportSchema>;
/** An argument of a package. */
export type RegistryArgument = z.output<typeof RegistryArgumentSchema>;
/** An input (a variable of a value template). */
export type RegistryInput = z.output<typeof RegistryInputSchema>;
/** The official registry's metadata of one server version. */
export type OfficialMeta = z.output<typeof OfficialMetaSchema>;

/** One server version in Lass's answers: its `server.json` and the registry's metadata. */
export interface RegistryEntry {
  server: ServerJson;
  /** `_meta["io.modelcontextprotocol.registry/official"]`: status, publishedAt, isLatest... */
  official?: OfficialMeta;
}

/** The answer of `GET /api/registry/servers`: a page of servers. */
export interface RegistryServerPage {
  /** The registry asked (`registryUrl` of the config). */
  registryUrl: string;
  servers: RegistryEntry[];
  /** Pass as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

/** The answer of `GET /api/registry/versions?name=`: every version of one server, newest first. */
export interface RegistryVersions {
  registryUrl: string;
  name: string;
  versions: RegistryEntry[];
}

/** One value an added record needs, and where it goes. */
export interface RegistryInputNeed {
  /** The key under which `POST /api/registry/add` takes a value for it in `inputs`. */
  key: string;
  /** What it is: `env FOO`, `header X-Api-Key`, `argument --port`, `{tenant} in the URL`. */
  label: string;
  description?: string;
  isRequired: boolean;
  isSecret: boolean;
  default?: string;
  choices?: string[];
  /**
   * The environment variable the record reads it from (`env:NAME` or `${NAME}`): always for a
   * secret, and for a required value with no default and none given.
   */
  variable?: string;
  /** The value written into the record, when it is not read from the environment. */
  value?: string;
}

/** The answer of `POST /api/registry/add`: the record, and what to know before connecting it. */
export interface RegistryAddResult {
  /** The `mcpServers[]` record as written (with `preview`: as it would be written). */
  server: Record<string, unknown>;
  /** Whether it was saved in the config (false with `preview: true`). */
  saved: boolean;
  /** Every input of the package or remote, with what the record does with it. */
  inputs: RegistryInputNeed[];
  /** The variables to set in Lass's environment before connecting, in order. */
  envVariables: string[];
  /** Sentences: what was left out, what the publisher suggests that Lass does otherwise. */
  notes: string[];
}
