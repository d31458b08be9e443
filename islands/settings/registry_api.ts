/** The MCP Registry routes, typed for the settings page (Lass asks the registry, not the browser). */
import type {
  RegistryAddResult,
  RegistryServerPage,
  RegistryVersions,
} from "../../wire/registry.ts";
import { api } from "../state.ts";

/** What an add tells the tool-server section: the new record's id and the variables to set. */
export interface RegistryAdded {
  id: string;
  envVariables: string[];
}

/** What `POST /api/registry/add` takes. */
export interface RegistryAddBody {
  name: string;
  version: string;
  package?: number;
  remote?: number;
  inputs?: Record<string, string>;
  preview?: boolean;
}

/** `GET /api/registry/servers`, `GET /api/registry/versions` and `POST /api/registry/add`. */
export const registryApi = {
  /** A page of the latest server versions matching `search` (name or description). */
  search: (search: string, cursor?: string) => {
    const query = new URLSearchParams({ limit: "20" });
    if (search.trim()) query.set("search", search.trim());
    if (cursor) query.set("cursor", cursor);
    return api().json<RegistryServerPage>("GET", `/api/registry/servers?${query}`);
  },
  /** Every version of one server, newest first. */
  versions: (name: string) =>
    api().json<RegistryVersions>(
      "GET",
      `/api/registry/versions?${new URLSearchParams({ name })}`,
    ),
  /** The record a package or remote makes (`preview`), or the record added. */
  add: (body: RegistryAddBody) => api().json<RegistryAddResult>("POST", "/api/registry/add", body),
};
