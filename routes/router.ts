/** A small router: static paths from a Map first, then `:param` patterns by segment; 404, and 405 with `Allow`. */

/** The HTTP methods routes can answer. */
export type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";

/** A route handler: a pure function of the request and its context. */
export type RouteHandler<C> = (req: Request, ctx: C & { params: Record<string, string> }) =>
  | Response
  | Promise<Response>;

/** A route module's handlers for one path, keyed by method. */
export type MethodMap<C> = Partial<Record<Method, RouteHandler<C>>>;

/** Paths (`/api/sessions/:id`) to their method maps. */
export type RouteTable<C> = Record<string, MethodMap<C>>;

/** What {@link Router.match} found. */
export type RouteMatch<C> =
  | { kind: "found"; handler: RouteHandler<C>; params: Record<string, string>; path: string }
  | { kind: "method-not-allowed"; allow: string }
  | { kind: "not-found" };

interface Entry<C> {
  path: string;
  methods: MethodMap<C>;
  /** For patterns: each segment, a literal or a `:name` parameter. */
  segments?: string[];
}

/**
 * Maps method and path to a handler; no I/O. HEAD is answered by the GET handler. Patterns are
 * matched segment by segment in plain JavaScript (a parameter is one whole segment), which is
 * much cheaper per request than `URLPattern`.
 */
export class Router<C> {
  readonly #static = new Map<string, Entry<C>>();
  /** The patterns by their number of segments, in table order: a path is tried only against its own. */
  readonly #patterns = new Map<number, Entry<C>[]>();

  constructor(table: RouteTable<C>) {
    for (const [path, methods] of Object.entries(table)) {
      if (!path.includes("/:")) {
        this.#static.set(path, { path, methods });
        continue;
      }
      const segments = path.split("/");
      const same = this.#patterns.get(segments.length) ?? [];
      same.push({ path, methods, segments });
      this.#patterns.set(segments.length, same);
    }
  }

  /** Every route as `{method, path}`, e.g. for a test that walks the whole table. */
  get routes(): { method: Method; path: string }[] {
    return [...this.#static.values(), ...[...this.#patterns.values()].flat()].flatMap((entry) =>
      (Object.keys(entry.methods) as Method[]).map((method) => ({ method, path: entry.path }))
    );
  }

  /** Finds the handler of a request. */
  match(method: string, pathname: string): RouteMatch<C> {
    let entry = this.#static.get(pathname);
    let params: Record<string, string> = {};
    if (!entry) {
      const parts = pathname.split("/");
      for (const candidate of this.#patterns.get(parts.length) ?? []) {
        const found = matchSegments(candidate.segments!, parts);
        if (found) {
          entry = candidate;
          params = found;
          break;
        }
      }
    }
    if (!entry) return { kind: "not-found" };
    const handler = entry.methods[(method === "HEAD" ? "GET" : method) as Method];
    if (handler) return { kind: "found", handler, params, path: entry.path };
    const allow = Object.keys(entry.methods);
    if (allow.includes("GET")) allow.push("HEAD");
    return { kind: "method-not-allowed", allow: allow.join(", ") };
  }
}

/**
 * The decoded parameters when `parts` fit the pattern's segments (as many), else undefined: the
 * literal segments are compared first, and the parameters decoded only for a match.
 */
function matchSegments(segments: string[], parts: string[]): Record<string, string> | undefined {
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment.startsWith(":") ? parts[i] === "" : segment !== parts[i]) return undefined;
  }
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    if (segments[i].startsWith(":")) params[segments[i].slice(1)] = decode(parts[i]);
  }
  return params;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
