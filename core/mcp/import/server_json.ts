/**
 * The twelfth import format: a `server.json` of the MCP Registry (or one server version as the
 * registry's API answers it, `{server, _meta}`). Each package and remote is one entry, made into
 * a record the way `POST /api/registry/add` makes it, with no inputs given.
 */
import { LassError } from "../../errors.ts";
import { ServerJsonSchema } from "../../../wire/registry.ts";
import { planPackage, planRemote, type RecordPlan, shortName } from "../registry/record.ts";
import type { ReadResult, ServerEntry } from "./types.ts";

type Root = Record<string, unknown>;

function isRecord(value: unknown): value is Root {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The `server.json` of a root: itself, or the `server` of a registry answer. */
function serverRoot(root: Root): Root | undefined {
  const candidate = isRecord(root.server) && typeof root.server.name === "string"
    ? root.server
    : root;
  const hasOptions = Array.isArray(candidate.packages) || Array.isArray(candidate.remotes);
  return typeof candidate.name === "string" && hasOptions ? candidate : undefined;
}

/** Whether a parsed config is a `server.json` (a name, and packages or remotes). */
export function isServerJson(root: Root): boolean {
  return serverRoot(root) !== undefined;
}

/** The entries of a `server.json`: one per package and per remote. */
export function readServerJson(root: Root): ReadResult {
  const parsed = ServerJsonSchema.safeParse(serverRoot(root) ?? root);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new LassError("invalid-request", "The server.json is not valid.", [
      { path: "json", message: `${issue.path.join(".") || "the file"}: ${issue.message}` },
    ]);
  }
  const server = parsed.data;
  const short = shortName(server);
  const packages = server.packages ?? [];
  const remotes = server.remotes ?? [];
  const single = packages.length + remotes.length === 1;
  const entry = (key: string, plan: () => RecordPlan): ServerEntry => {
    try {
      const { draft, envVariables, notes } = plan();
      const needs = envVariables.length === 0
        ? []
        : [`set ${envVariables.join(", ")} in Lass's environment before connecting`];
      return { key, draft, notes: [...notes, ...needs] };
    } catch (error) {
      if (!(error instanceof LassError)) throw error;
      return { key, notes: [`not imported: ${error.message}`] };
    }
  };
  const entries = [
    ...packages.map((pkg, index) =>
      entry(single ? short : `${short}-${pkg.registryType}`, () => planPackage(server, index))
    ),
    ...remotes.map((remote, index) =>
      entry(single ? short : `${short}-${remote.type}`, () => planRemote(server, index))
    ),
  ];
  return { entries, prompts: new Map() };
}
