/**
 * `POST /api/registry/add`: one package or remote of a registry server's version as a new
 * `mcpServers[]` record, saved in the config (or only shown, with `preview`).
 */
import { McpServerSchema } from "../../../wire/config/mcp_server_schema.ts";
import type { RegistryAddResult } from "../../../wire/registry.ts";
import type { ConfigStore } from "../../config/store.ts";
import { detailsFromIssues, LassError } from "../../errors.ts";
import { slugId, uniqueId } from "../server_ids.ts";
import type { RegistryClient } from "./client.ts";
import { planPackage, planRemote, shortName } from "./record.ts";

/** What to add: a server's version and one of its packages or remotes (indexes). */
export interface RegistryAddRequest {
  name: string;
  version: string;
  package?: number;
  remote?: number;
  /** The record's id; default the server's short name, made unique. */
  id?: string;
  /** Values for the package's or remote's inputs, by their key (never secrets). */
  inputs?: Record<string, string>;
  /** Answer the record without saving it. */
  preview?: boolean;
}

/** Adds (or previews) the record; throws `conflict` when the chosen id is taken. */
export async function addFromRegistry(
  request: RegistryAddRequest,
  deps: { client: RegistryClient; config: ConfigStore },
): Promise<RegistryAddResult> {
  const { server } = await deps.client.version(request.name, request.version);
  const plan = request.package !== undefined
    ? planPackage(server, request.package, request.inputs)
    : planRemote(server, request.remote!, request.inputs);
  const name = server.title?.trim() || shortName(server);
  const recordWith = (id: string) => ({ id, name, ...plan.draft });
  const idFor = (ids: string[]): string => {
    const taken = new Set(ids.map((id) => id.toLowerCase()));
    if (request.id === undefined) return uniqueId(slugId(shortName(server)), taken);
    if (taken.has(request.id.toLowerCase())) {
      throw new LassError("conflict", `a tool server with id "${request.id}" exists already`);
    }
    return request.id;
  };
  const candidate = recordWith(idFor(deps.config.config.mcpServers.map((known) => known.id)));
  const checked = McpServerSchema.safeParse(candidate);
  if (!checked.success) {
    throw new LassError(
      "invalid-request",
      `the registry's ${server.name} ${request.version} does not make a valid record`,
      detailsFromIssues(checked.error.issues, "server"),
    );
  }
  const result = { inputs: plan.inputs, envVariables: plan.envVariables, notes: plan.notes };
  if (request.preview) return { server: candidate, saved: false, ...result };
  let added = candidate;
  // The id is chosen again inside the write, against the config as it is then.
  await deps.config.update((stored) => {
    const list = Array.isArray(stored.mcpServers) ? stored.mcpServers as { id?: unknown }[] : [];
    added = recordWith(idFor(list.map((known) => String(known.id))));
    return { ...stored, mcpServers: [...list, added] };
  });
  return { server: added, saved: true, ...result };
}
