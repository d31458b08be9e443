/** The A2UI theme of a workspace (`generativeUi.theme`), read from the bootstrap's config. */
import type { Bootstrap } from "../../wire/bootstrap.ts";

/** A workspace's A2UI theme: `primaryColor`, `agentDisplayName`, ... (other fields pass through). */
export type A2uiTheme = Record<string, unknown>;

/** The id of a chat's workspace: its own, else the active one, else the first. */
export function workspaceIdOf(config: Bootstrap["config"] | undefined, chosen: string): string {
  return chosen || config?.activeWorkspaceId || config?.workspaces?.[0]?.id || "";
}

/** The theme of the workspace `workspaceId`, when it sets one. */
export function themeOf(
  config: Bootstrap["config"] | undefined,
  workspaceId: string,
): A2uiTheme | undefined {
  const workspace = config?.workspaces?.find((candidate) => candidate.id === workspaceId);
  const settings = workspace?.generativeUi;
  if (typeof settings !== "object" || settings === null) return undefined;
  const theme = (settings as { theme?: unknown }).theme;
  return typeof theme === "object" && theme !== null ? theme as A2uiTheme : undefined;
}
