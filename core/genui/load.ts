/** Loads catalogs: the standard one from `@a2ui/web_core`, configured ones from a file, a URL or inline. */
import type { z } from "zod";
import { Catalog } from "@a2ui/web_core/v0_9";
import type { CatalogSchema } from "../../wire/config/skill_agent_catalog_schemas.ts";
import { STANDARD_CATALOG_ID } from "../../wire/config/skill_agent_catalog_schemas.ts";
import { type EnvLookup, resolveEnvRef } from "../config/env_refs.ts";
import type { FileSystem } from "../files.ts";
import { type PathBase, resolveUserPath } from "../skills/paths.ts";
import type { CatalogComponent } from "../../wire/catalogs.ts";
import {
  CATALOG_FETCH_TIMEOUT_MS,
  type ComponentValidator,
  type LoadedCatalog,
  MAX_CATALOG_BYTES,
} from "./catalog.ts";
import { componentJsonSchema } from "./component_schema.ts";

/** One `catalogs[]` record of the config. */
export type CatalogRecord = z.output<typeof CatalogSchema>;

/** What loading a configured catalog needs. */
export interface LoadDeps {
  fs: FileSystem;
  /** Where relative and `~` paths start. */
  base: PathBase;
  env: EnvLookup;
  /** Fetch for URL catalogs; default the global one. */
  fetch?: typeof fetch;
  timeoutMs?: number;
  maxBytes?: number;
}

type Json = Record<string, unknown>;

/** The common types a catalog may refer to in `common_types.json` (v0.9). */
const COMMON_TYPES = new Set([
  "ComponentId",
  "AccessibilityAttributes",
  "ComponentCommon",
  "ChildList",
  "DataBinding",
  "DynamicValue",
  "DynamicString",
  "DynamicNumber",
  "DynamicBoolean",
  "DynamicStringList",
  "FunctionCall",
  "CheckRule",
  "Checkable",
  "Action",
]);

let standard: Promise<LoadedCatalog> | undefined;

/**
 * The standard catalog: the A2UI v0.9 basic catalog as `@a2ui/web_core` defines it (loaded once).
 * `deno task schema` writes its view to `schema/standard_catalog.json`, which the registry lists;
 * this live load gives the validators (see `standard_catalog.ts`).
 */
export function loadStandardCatalog(): Promise<LoadedCatalog> {
  standard ??= (async () => {
    try {
      return await standardCatalog();
    } catch (error) {
      standard = undefined; // try again next time
      throw error;
    }
  })();
  return standard;
}

async function standardCatalog(): Promise<LoadedCatalog> {
  const { basicCatalog } = await import("@a2ui/web_core/v0_9/basic_catalog");
  return catalogOf(basicCatalog, {
    id: STANDARD_CATALOG_ID,
    name: "A2UI basic catalog (v0.9)",
    source: "standard",
    descriptions: new Map(),
    errors: [],
  });
}

/** Loads one configured catalog; never throws: what went wrong is in `errors`. */
export async function loadCatalogRecord(
  record: CatalogRecord,
  deps: LoadDeps,
): Promise<LoadedCatalog> {
  const source = record.catalog !== undefined
    ? "inline"
    : record.url !== undefined
    ? "url"
    : "path";
  const location = record.path !== undefined ? resolveUserPath(record.path, deps.base) : record.url;
  const meta = { id: record.id, source, location, name: record.name } as const;
  let json: unknown;
  try {
    json = record.catalog ??
      (record.url !== undefined
        ? await fetchCatalog(resolveEnvRef(record.url, deps.env), deps)
        : await readCatalogFile(location!, deps));
  } catch (error) {
    return broken(meta, (error as Error).message);
  }
  return catalogFromJson(json, meta);
}

/** A catalog that could not be used at all. */
function broken(
  meta: { id: string; source: LoadedCatalog["source"]; location?: string; name?: string },
  error: string,
): LoadedCatalog {
  return {
    id: meta.id,
    name: meta.name?.trim() || meta.id,
    catalogId: "",
    source: meta.source,
    ...(meta.location !== undefined && { location: meta.location }),
    components: [],
    functions: [],
    errors: [error],
    validators: () => Promise.resolve(new Map()),
  };
}

/** Reads a catalog file, at most `maxBytes`. */
async function readCatalogFile(path: string, deps: LoadDeps): Promise<unknown> {
  const limit = deps.maxBytes ?? MAX_CATALOG_BYTES;
  const bytes = await deps.fs.readBytes(path, limit + 1).catch((error: Error) => {
    throw new Error(`the catalog file ${path} cannot be read: ${error.message}`);
  });
  if (bytes === undefined) throw new Error(`the catalog file ${path} does not exist`);
  if (bytes.byteLength > limit) {
    throw new Error(`the catalog file ${path} is larger than ${limit} bytes`);
  }
  return parseJson(new TextDecoder().decode(bytes), `the catalog file ${path}`);
}

/** Fetches a catalog URL with a deadline and a size cap. */
async function fetchCatalog(url: string, deps: LoadDeps): Promise<unknown> {
  const limit = deps.maxBytes ?? MAX_CATALOG_BYTES;
  const timeoutMs = deps.timeoutMs ?? CATALOG_FETCH_TIMEOUT_MS;
  const shown = url.replace(/\/\/[^/@]*@/, "//");
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await (deps.fetch ?? fetch)(url, {
      signal,
      headers: { accept: "application/json" },
      redirect: "follow",
    });
  } catch (error) {
    throw new Error(
      signal.aborted
        ? `fetching ${shown} took longer than ${timeoutMs} ms`
        : `fetching ${shown} failed: ${(error as Error).message}`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`fetching ${shown} answered HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > limit) {
    await response.body?.cancel();
    throw new Error(`${shown} is larger than ${limit} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw new Error(`${shown} is larger than ${limit} bytes`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (signal.aborted) throw new Error(`fetching ${shown} took longer than ${timeoutMs} ms`);
    throw error;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return parseJson(new TextDecoder().decode(bytes), shown);
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks a catalog document and turns it into a loaded catalog. A document that is not an object,
 * or has no catalog id or no components map, cannot be used; a component whose schema is broken
 * (not an object, a `component` constant naming another component, a `$ref` that does not
 * resolve) is left out with an error, and the others stay usable.
 */
export function catalogFromJson(
  json: unknown,
  meta: { id: string; source: LoadedCatalog["source"]; location?: string; name?: string },
): LoadedCatalog {
  if (!isRecord(json)) return broken(meta, "the catalog is not a JSON object");
  const catalogId = json.catalogId ?? json.$id ?? json.id;
  if (typeof catalogId !== "string" || catalogId.trim() === "") {
    return broken(meta, "the catalog has no catalogId (a URI that names it)");
  }
  if (!isRecord(json.components)) {
    return broken(meta, "the catalog has no components object ({name: JSON Schema})");
  }
  const errors: string[] = [];
  const components: Json = {};
  const descriptions = new Map<string, string>();
  for (const [name, schema] of Object.entries(json.components)) {
    const problem = componentProblem(name, schema, json);
    if (problem) {
      errors.push(`component ${name}: ${problem}`);
      continue;
    }
    components[name] = schema;
    const description = describedBy(schema as Json);
    if (description) descriptions.set(name, description);
  }
  let catalog;
  try {
    catalog = Catalog.fromSchema({ ...json, catalogId, components });
  } catch (error) {
    return broken(meta, `the catalog cannot be loaded: ${(error as Error).message}`);
  }
  const name = meta.name?.trim() ||
    (typeof json.title === "string" && json.title.trim() ? json.title.trim() : meta.id);
  return catalogOf(catalog, { ...meta, name, descriptions, errors });
}

/** Why a component's schema cannot be used, if it cannot. */
function componentProblem(name: string, schema: unknown, root: Json): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) {
    return "the name must be letters, digits or _, starting with a letter";
  }
  if (!isRecord(schema)) return "the schema is not an object";
  const constant = findComponentConst(schema, root);
  if (constant !== undefined && constant !== name) {
    return `its "component" property is the constant ${JSON.stringify(constant)}`;
  }
  for (const ref of refsIn(schema)) {
    if (ref.startsWith("#/")) {
      if (resolvePointer(root, ref) === undefined) return `the $ref ${ref} does not resolve`;
      continue;
    }
    const common = /common_types\.json#\/\$defs\/([A-Za-z]+)$/.exec(ref);
    if (!common || !COMMON_TYPES.has(common[1])) {
      return `the $ref ${ref} is neither local nor a v0.9 common type (catalogs are standalone)`;
    }
  }
  return undefined;
}

/** The `component: {const}` of a component schema, looking into `allOf`. */
function findComponentConst(schema: Json, root: Json): unknown {
  const properties = schema.properties as Json | undefined;
  const own = (properties?.component as Json | undefined)?.const;
  if (own !== undefined) return own;
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    if (!isRecord(part)) continue;
    const target = typeof part.$ref === "string" && part.$ref.startsWith("#/")
      ? resolvePointer(root, part.$ref)
      : part;
    if (isRecord(target) && target !== schema) {
      const found = (target.properties as Json | undefined)?.component as Json | undefined;
      if (found?.const !== undefined) return found.const;
    }
  }
  return undefined;
}

/** The description of a component schema: its own, else that of an `allOf` part. */
function describedBy(schema: Json): string | undefined {
  if (typeof schema.description === "string" && schema.description.trim()) {
    return schema.description.trim();
  }
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    if (isRecord(part) && typeof part.description === "string" && part.description.trim()) {
      return part.description.trim();
    }
  }
  return undefined;
}

/** Every `$ref` inside a schema. */
function refsIn(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => refsIn(item, found));
  else if (isRecord(node)) {
    if (typeof node.$ref === "string") found.push(node.$ref);
    for (const value of Object.values(node)) refsIn(value, found);
  }
  return found;
}

/** Resolves a local JSON pointer (`#/...`) in a document. */
function resolvePointer(root: Json, pointer: string): unknown {
  let current: unknown = root;
  for (const raw of pointer.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isRecord(current) || !(key in current)) return undefined;
    current = current[key];
  }
  return current;
}

/** A web_core catalog as a loaded catalog: component JSON Schemas, validators, function names. */
function catalogOf(
  catalog: {
    id: string;
    components: ReadonlyMap<string, { schema: ComponentValidator["schema"] }>;
    functions: ReadonlyMap<string, unknown>;
  },
  meta: {
    id: string;
    name: string;
    source: LoadedCatalog["source"];
    location?: string;
    descriptions: Map<string, string>;
    errors: string[];
  },
): LoadedCatalog {
  const components: CatalogComponent[] = [];
  const validators = new Map<string, ComponentValidator>();
  const errors = [...meta.errors];
  for (const [name, api] of catalog.components) {
    let schema;
    try {
      schema = componentJsonSchema(api.schema);
    } catch (error) {
      errors.push(`component ${name}: its schema cannot be shown: ${(error as Error).message}`);
      continue;
    }
    const description = meta.descriptions.get(name) ?? api.schema.description;
    components.push({ name, ...(description && { description }), schema });
    validators.set(name, { schema: api.schema });
  }
  return {
    id: meta.id,
    name: meta.name,
    catalogId: catalog.id,
    source: meta.source,
    ...(meta.location !== undefined && { location: meta.location }),
    components,
    functions: [...catalog.functions.keys()],
    errors,
    validators: () => Promise.resolve(validators),
  };
}
