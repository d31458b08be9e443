/**
 * What Lass tells a View about itself in `ui/initialize` and `host-context-changed`: theme (from
 * the system setting, as the page's CSS follows it), the page's colours and fonts as the spec's
 * style variables, locale, time zone, inline display and the room the View has.
 */
import { bootstrap } from "../state.ts";
import type { McpUiHostContext } from "./mcp_types.ts";

type Styles = NonNullable<NonNullable<McpUiHostContext["styles"]>["variables"]>;

const DARK = "(prefers-color-scheme: dark)";

/** The spec's style variables from the page's own (static/app.css). */
const FROM_PAGE: Record<string, string> = {
  "--color-background-primary": "--bg-card",
  "--color-background-secondary": "--bg-soft",
  "--color-background-info": "--accent-soft",
  "--color-background-danger": "--danger-soft",
  "--color-background-warning": "--warn-soft",
  "--color-text-primary": "--fg",
  "--color-text-secondary": "--fg-soft",
  "--color-text-info": "--accent",
  "--color-text-danger": "--danger",
  "--color-text-success": "--ok",
  "--color-text-warning": "--warn",
  "--color-border-primary": "--border",
  "--color-ring-primary": "--focus",
  "--font-mono": "--mono",
  "--border-radius-lg": "--radius",
};

/** The page's current colours and fonts as the spec's style variables. */
function styleVariables(): Styles {
  const style = getComputedStyle(document.documentElement);
  const variables: Record<string, string> = {
    "--font-sans": style.fontFamily,
    "--border-radius-md": "6px",
    "--border-width-regular": "1px",
  };
  for (const [name, own] of Object.entries(FROM_PAGE)) {
    const value = style.getPropertyValue(own).trim();
    if (value) variables[name] = value;
  }
  return variables as Styles;
}

/** The part of the host context that follows the theme. */
export function themeContext(): Pick<McpUiHostContext, "theme" | "styles"> {
  return {
    theme: matchMedia(DARK).matches ? "dark" : "light",
    styles: { variables: styleVariables() },
  };
}

/** Calls `onChange` when the system theme changes; returns the function that stops it. */
export function watchTheme(onChange: () => void): () => void {
  const query = matchMedia(DARK);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** Room for a View: the container's width; the height is the View's, up to a limit. */
export function containerContext(container: HTMLElement): Pick<
  McpUiHostContext,
  "containerDimensions"
> {
  return { containerDimensions: { width: Math.round(container.clientWidth), maxHeight: 4000 } };
}

/** The tool a View belongs to, from the tool server's state, for `toolInfo`. */
function toolOf(serverId: string, name: string): NonNullable<McpUiHostContext["toolInfo"]>["tool"] {
  const state = bootstrap.peek()?.mcp.find((server) => server.id === serverId);
  const tool = state?.tools.find((candidate) => candidate.name === name);
  return {
    name,
    ...(tool?.title && { title: tool.title }),
    ...(tool?.description && { description: tool.description }),
    inputSchema: (tool?.inputSchema ?? { type: "object" }) as { type: "object" },
  };
}

/** The whole host context of a View of `serverId`'s tool `tool`, called as `callId`. */
export function hostContext(options: {
  container: HTMLElement;
  serverId: string;
  tool: string;
  callId: string;
}): McpUiHostContext {
  return {
    toolInfo: { id: options.callId, tool: toolOf(options.serverId, options.tool) },
    ...themeContext(),
    displayMode: "inline",
    availableDisplayModes: ["inline"],
    ...containerContext(options.container),
    locale: navigator.language,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    userAgent: navigator.userAgent,
    platform: "web",
    deviceCapabilities: {
      touch: matchMedia("(pointer: coarse)").matches,
      hover: matchMedia("(hover: hover)").matches,
    },
  };
}
