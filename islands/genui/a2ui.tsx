/** The A2UI renderer: to be written. */
import type { ToolUiProps } from "./render.tsx";

/** Renders A2UI results. */
export default function Renderer({ ui }: ToolUiProps) {
  return <div class="genui-placeholder" data-ui-kind={ui.kind}>A2UI</div>;
}
