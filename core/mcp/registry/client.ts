/**
 * Lass's client of an MCP Registry (the registry API v0.1: `GET /v0.1/servers`,
 * `/v0.1/servers/{name}/versions[/{version}]`): answers parsed tolerantly with zod, cached for
 * five minutes, and every failure to reach the registry as a clear contract error.
 */
import { type z } from "zod";
import { clip, LassError } from "../../errors.ts";
import {
  OFFICIAL_META,
  type RegistryEntry,
  type RegistryServerPage,
  type RegistryVersions,
  ServerListSchema,
  ServerResponseSchema,
} from "../../../wire/registry.ts";

/** How long an answer of the registry is reused. */
export const REGISTRY_CACHE_MS = 5 * 60_000;

/** The most answers kept; the oldest go first. */
const MAX_CACHED = 200;

/** Options of {@link RegistryClient}. */
export interface RegistryClientOptions {
  /** The registry's base URL, read at each request (the config's `registryUrl`). */
  registryUrl: () => string;
  fetch?: typeof fetch;
  /** The clock, in ms. */
  now?: () => number;
  /** How long to wait for the registry; default 15 s. */
  timeoutMs?: number;
}

/** What `GET /api/registry/servers` passes on to the registry. */
export interface ListQuery {
  search?: string;
  cursor?: string;
  limit?: number;
  /** `latest` (one entry per server) or an exact version. */
  version?: string;
}

interface Cached {
  at: number;
  value: Promise<unknown>;
}

/** Reads one MCP Registry; answers are shared and reused for {@link REGISTRY_CACHE_MS}. */
export class RegistryClient {
  readonly #options: RegistryClientOptions;
  readonly #cache = new Map<string, Cached>();

  constructor(options: RegistryClientOptions) {
    this.#options = options;
  }

  /**
   * The registry's base URL without a trailing slash; `invalid-config` when it is not an http(s)
   * URL (an env reference to a variable that is not set).
   */
  get registryUrl(): string {
    const url = this.#options.registryUrl().replace(/\/+$/, "");
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      throw new LassError("invalid-config", `registryUrl is not an http or https URL: "${url}"`, [
        { path: "registryUrl", message: "must be an http or https URL (after env references)" },
      ]);
    }
    return url;
  }

  /** A page of servers: searched by name and description, from `cursor`, at most `limit`. */
  async list(query: ListQuery): Promise<RegistryServerPage> {
    const registryUrl = this.registryUrl;
    const url = new URL(`${registryUrl}/v0.1/servers`);
    if (query.search) url.searchParams.set("search", query.search);
    if (query.cursor) url.searchParams.set("cursor", query.cursor);
    if (query.limit !== undefined) url.searchParams.set("limit", String(query.limit));
    if (query.version) url.searchParams.set("version", query.version);
    const page = await this.#get(url, ServerListSchema);
    const nextCursor = page.metadata?.nextCursor || undefined;
    return {
      registryUrl,
      servers: validEntries(page.servers),
      ...(nextCursor && { nextCursor }),
    };
  }

  /** Every version of one server, as the registry orders them (newest first). */
  async versions(name: string): Promise<RegistryVersions> {
    const registryUrl = this.registryUrl;
    const url = new URL(`${registryUrl}/v0.1/servers/${encodeURIComponent(name)}/versions`);
    const page = await this.#get(url, ServerListSchema, `the server ${name}`);
    return { registryUrl, name, versions: validEntries(page.servers) };
  }

  /** One version of one server (`latest` for the newest). */
  async version(name: string, version: string): Promise<RegistryEntry> {
    const url = new URL(
      `${this.registryUrl}/v0.1/servers/${encodeURIComponent(name)}/versions/${
        encodeURIComponent(version)
      }`,
    );
    return entryOf(await this.#get(url, ServerResponseSchema, `${name} version ${version}`));
  }

  /** The parsed answer at `url`, from the cache while it is fresh; failures are not kept. */
  #get<S extends z.ZodType>(url: URL, schema: S, what?: string): Promise<z.output<S>> {
    const now = this.#options.now?.() ?? Date.now();
    const key = url.href;
    const cached = this.#cache.get(key);
    if (cached && now - cached.at < REGISTRY_CACHE_MS) return cached.value as Promise<z.output<S>>;
    const value = this.#fetch(url, schema, what);
    this.#cache.delete(key);
    this.#cache.set(key, { at: now, value });
    while (this.#cache.size > MAX_CACHED) this.#cache.delete(this.#cache.keys().next().value!);
    value.catch(() => {
      if (this.#cache.get(key)?.value === value) this.#cache.delete(key);
    });
    return value;
  }

  async #fetch<S extends z.ZodType>(url: URL, schema: S, what?: string): Promise<z.output<S>> {
    const doFetch = this.#options.fetch ?? fetch;
    const timeoutMs = this.#options.timeoutMs ?? 15_000;
    const where = `the MCP registry at ${url.origin}`;
    let response: Response;
    try {
      response = await doFetch(url, {
        headers: { accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      if ((error as Error)?.name === "TimeoutError") {
        throw new LassError("timeout", `${where} did not answer within ${timeoutMs / 1000} s`);
      }
      throw new LassError(
        "upstream-error",
        `${where} cannot be reached (${causeOf(error)}); check the network and any proxy ` +
          "(HTTPS_PROXY), or set registryUrl in the config",
      );
    }
    const text = await response.text().catch(() => "");
    if (response.status === 404 && what) {
      throw new LassError("not-found", `${where} has no ${what}`);
    }
    if (!response.ok) {
      const said = registryMessage(text);
      throw new LassError(
        "upstream-error",
        `${where} answered ${response.status} ${response.statusText}`.trim() +
          ` for ${url.pathname}${said ? `: ${said}` : ""}`,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw notTheApi(where, url, "not JSON");
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw notTheApi(where, url, `${issue.path.join(".") || "the body"}: ${issue.message}`);
    }
    return parsed.data;
  }
}

function notTheApi(where: string, url: URL, why: string): LassError {
  return new LassError(
    "upstream-error",
    `${where} answered ${url.pathname} with something that is not the registry API (${why}); ` +
      "is registryUrl right, or is a proxy answering instead?",
  );
}

/** The registry's own error sentence (`{"error": "..."}` or `{"detail": "..."}`), if any. */
function registryMessage(text: string): string {
  try {
    const body = JSON.parse(text);
    const said = body?.error ?? body?.detail ?? body?.title ?? body?.message;
    return typeof said === "string" ? clip(said, 300) : "";
  } catch {
    return "";
  }
}

/** The deepest message of an error and its causes. */
function causeOf(error: unknown): string {
  let current = error as { message?: string; cause?: unknown } | undefined;
  let message = "unknown error";
  for (let depth = 0; current && depth < 5; depth++) {
    if (current.message) message = current.message;
    current = current.cause as typeof current;
  }
  return clip(message, 300);
}

/**
 * The entries of a list that read as server versions; one the registry serves malformed (no name,
 * a package without an identifier) is left out rather than failing the whole page.
 */
function validEntries(items: unknown[]): RegistryEntry[] {
  return items.flatMap((item) => {
    const parsed = ServerResponseSchema.safeParse(item);
    return parsed.success ? [entryOf(parsed.data)] : [];
  });
}

function entryOf(entry: z.output<typeof ServerResponseSchema>): RegistryEntry {
  const official = entry._meta?.[OFFICIAL_META];
  return { server: entry.server, ...(official && { official }) };
}
