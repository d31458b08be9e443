/** The MCP App renderer: to be written. */
import type { ToolUiProps } from "./render.tsx";

/** Renders MCP App results. */
export default function Renderer({ ui }: ToolUiProps) {
  return <div class="genui-placeholder" data-ui-kind={ui.kind}>MCP App</div>;
}
