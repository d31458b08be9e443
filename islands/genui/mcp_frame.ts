/**
 * The outer frame of a View: the sandbox port's proxy page (`routes/sandbox.ts`), on an origin
 * other than Lass's, with the resource's CSP in its URL. It never carries the token.
 */
import type { McpUiResourceCsp, McpUiResourcePermissions } from "./mcp_types.ts";

/**
 * The outer frame's sandbox, as the spec asks: the proxy keeps its own origin (so both sides can
 * check message origins and it can write the View into its inner frame) and runs its script.
 */
export const OUTER_SANDBOX = "allow-scripts allow-same-origin allow-forms";

/** The spec's proxy messages, which the proxy handles itself and never relays. */
export const PROXY_READY = "ui/notifications/sandbox-proxy-ready";
export const RESOURCE_READY = "ui/notifications/sandbox-resource-ready";

/** How long the proxy page may take to say it is ready. */
export const PROXY_TIMEOUT_MS = 10_000;

/** The proxy page's URL for a resource CSP. */
export function sandboxUrl(origin: string, csp: McpUiResourceCsp = {}): string {
  return `${origin}/?csp=${encodeURIComponent(JSON.stringify(csp))}`;
}

const FEATURES: Record<keyof McpUiResourcePermissions, string> = {
  camera: "camera",
  microphone: "microphone",
  geolocation: "geolocation",
  clipboardWrite: "clipboard-write",
};

/** The `allow` attribute (Permissions Policy) of a resource's `_meta.ui.permissions`. */
export function allowAttribute(permissions: McpUiResourcePermissions | undefined): string {
  const keys = Object.keys(FEATURES) as (keyof McpUiResourcePermissions)[];
  return keys.filter((key) => permissions?.[key]).map((key) => FEATURES[key]).join("; ");
}

/** Options of {@link createSandboxFrame}. */
export interface SandboxFrameOptions {
  title: string;
  permissions?: McpUiResourcePermissions;
  /** Height in px until the View reports its own. */
  height?: number;
}

/**
 * The outer frame, not yet loaded: append it, connect a listener to its `contentWindow`, then set
 * `src` to {@link sandboxUrl} (so the proxy's first message cannot be missed).
 */
export function createSandboxFrame(options: SandboxFrameOptions): HTMLIFrameElement {
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", OUTER_SANDBOX);
  // The proxy must be able to delegate the permissions to the View it frames.
  const allow = allowAttribute(options.permissions);
  if (allow) frame.setAttribute("allow", allow);
  frame.title = options.title;
  frame.className = "mcp-frame";
  frame.referrerPolicy = "no-referrer";
  setFrameHeight(frame, options.height ?? 160);
  return frame;
}

/** Sets a frame's height from a View's report, within sane bounds. */
export function setFrameHeight(frame: HTMLIFrameElement, height: number): void {
  if (!Number.isFinite(height)) return;
  frame.style.height = `${Math.round(Math.min(Math.max(height, 24), 4000))}px`;
}
