/**
 * Generative UI in a tool card: picks the renderer of a result's `ui` kind and loads it on
 * demand (each renderer is its own chunk, so the chat page stays small).
 */
import { signal } from "@preact/signals";
import type { ComponentType } from "preact";
import { useContext } from "preact/hooks";
import { ChatContext } from "../chat/context.ts";
import type { ToolCallView, ToolResultView } from "../chat/model.ts";
import type { ToolUi } from "../../wire/chat.ts";
import type { ToolUiProps } from "./types.ts";

type RendererModule = { default: ComponentType<ToolUiProps> };

const RENDERERS: Record<ToolUi["kind"], () => Promise<RendererModule>> = {
  "a2ui": () => import("./a2ui.tsx"),
  "mcp-app": () => import("./mcp_app.tsx"),
  "mcp-ui": () => import("./mcp_ui.tsx"),
};

const loaded = signal<Partial<Record<ToolUi["kind"], ComponentType<ToolUiProps>>>>({});
const failed = signal<Partial<Record<ToolUi["kind"], string>>>({});
const loading = new Set<string>();

function load(kind: ToolUi["kind"]): void {
  if (loading.has(kind)) return;
  loading.add(kind);
  RENDERERS[kind]().then(
    (module) => loaded.value = { ...loaded.peek(), [kind]: module.default },
    (error) => {
      loading.delete(kind);
      failed.value = { ...failed.peek(), [kind]: String(error) };
    },
  );
}

/** The props of {@link ToolUiView}. */
export interface ToolUiViewProps {
  ui: ToolUi | { kind: ToolUi["kind"] };
  call: ToolCallView;
  result: ToolResultView;
  runId?: string;
}

/** The rendered UI of a tool result. */
export function ToolUiView({ ui, call, result, runId }: ToolUiViewProps) {
  const chat = useContext(ChatContext);
  if (!(ui.kind in RENDERERS)) return null;
  if (Object.keys(ui).length === 1) {
    return (
      <p class="genui-missing note" data-ui-kind={ui.kind}>
        This result had UI ({ui.kind}) that this session did not keep.
      </p>
    );
  }
  const Renderer = loaded.value[ui.kind];
  if (Renderer) {
    return <Renderer ui={ui as ToolUi} call={call} result={result} runId={runId} chat={chat} />;
  }
  const problem = failed.value[ui.kind];
  if (problem) {
    return <p class="error" role="alert">The {ui.kind} renderer could not load: {problem}</p>;
  }
  load(ui.kind);
  return <p class="loading genui-loading" data-ui-kind={ui.kind}>Loading the UI…</p>;
}
