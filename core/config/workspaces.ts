/**
 * The one rule for which workspace a request means: the one it names, else the active one
 * (`activeWorkspaceId`), else the first. Chat, export, generative UI, checks, evals, sampling and
 * healing all use it.
 */
import type { ServiceConfig, Workspace } from "../../wire/config/schema.ts";
import { LassError } from "../errors.ts";

/** The workspace meant when none is named: the active one, else the first; none in an empty list. */
export function defaultWorkspace(config: ServiceConfig): Workspace | undefined {
  return config.workspaces.find((workspace) => workspace.id === config.activeWorkspaceId) ??
    config.workspaces[0];
}

/** The workspace named by `id`, else {@link defaultWorkspace}; 404 `not-found` when there is none. */
export function workspaceFor(config: ServiceConfig, id?: string): Workspace {
  const workspace = id === undefined
    ? defaultWorkspace(config)
    : config.workspaces.find((candidate) => candidate.id === id);
  if (workspace) return workspace;
  throw new LassError(
    "not-found",
    id === undefined ? "the config has no workspace" : `no workspace has id ${id}`,
  );
}
