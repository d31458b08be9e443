/** The Tools tab: the server's tools to pick from, and the picked one's form and result. */
import { useSignal } from "@preact/signals";
import { ItemPicker } from "./panel.tsx";
import { ToolPanel } from "./tool_panel.tsx";
import { waitingEdit } from "./edit_request.ts";
import type { ToolServerState } from "../../wire/tool_servers.ts";

/** The tools of a connected server. */
export function ToolsTab({ state }: { state: ToolServerState }) {
  const selected = useSignal<string | null>(state.tools[0]?.name ?? null);
  const edit = waitingEdit(state.id, "tool");
  if (edit && selected.peek() !== edit.name && state.tools.some((t) => t.name === edit.name)) {
    selected.value = edit.name;
  }
  if (state.tools.length === 0) return <p class="hint">This server offers no tools.</p>;
  const tool = state.tools.find((candidate) => candidate.name === selected.value) ??
    state.tools[0];
  return (
    <div class="inspector-split">
      <ItemPicker
        label="Tools"
        items={state.tools.map((t) => ({
          key: t.name,
          label: t.name,
          detail: t.title,
          badges: t.disabled ? ["disabled"] : !t.modelVisible ? ["app only"] : undefined,
        }))}
        selected={tool.name}
        onSelect={(name) => selected.value = name}
      />
      <ToolPanel key={`${state.id}/${tool.name}`} serverId={state.id} tool={tool} />
    </div>
  );
}
