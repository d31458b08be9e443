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

/** The channels of a `#rgb` or `#rrggbb` colour, 0..255, or undefined for anything else. */
function channelsOf(color: string): [number, number, number] | undefined {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(color);
  const long = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  const parts = long ? long.slice(1) : short ? short.slice(1).map((digit) => digit + digit) : null;
  return parts ? parts.map((part) => parseInt(part, 16)) as [number, number, number] : undefined;
}

/** The WCAG relative luminance of a colour's channels. */
function luminance(channels: [number, number, number]): number {
  const [r, g, b] = channels.map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The text colour to put on a surface's `primaryColor` (black or white, whichever contrasts
 * more), so a themed button stays readable in light and dark; undefined when the colour is not
 * a hex colour.
 */
export function onPrimaryOf(primaryColor: unknown): string | undefined {
  if (typeof primaryColor !== "string") return undefined;
  const channels = channelsOf(primaryColor.trim());
  if (!channels) return undefined;
  const l = luminance(channels);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#ffffff";
}
