/**
 * Settings: tool servers (`mcpServers[]`) with live status, connect, sign-in, test, import and
 * add from the MCP Registry.
 */
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { followServers, serversError } from "../tool_servers.ts";
import { RecordSection } from "./kit.tsx";
import { ServerEditor } from "./servers_editor.tsx";
import { ImportServers } from "./servers_import.tsx";
import { RegistryServers } from "./servers_registry.tsx";
import { ServerActions, ServerSummary } from "./servers_status.tsx";
import type { SectionProps } from "./types.ts";

/** The tool servers section. */
export function ServersSection({ selected }: SectionProps) {
  const added = useSignal<string[] | null>(null);
  /** Variables the last server added from the registry reads from Lass's environment. */
  const toSet = useSignal<string[]>([]);
  useEffect(() => followServers(), []);
  return (
    <RecordSection
      section="mcpServers"
      slug="servers"
      title="Tool servers"
      noun="tool server"
      selected={selected}
      intro={
        <>
          <p>
            MCP servers whose tools the model can call (as{" "}
            <code>&lt;id&gt;__&lt;tool&gt;</code>). Workspaces pick which ones they use; those
            connect on their own, the others when you connect them here or in the inspector.
          </p>
          {added.value
            ? (
              <p class="note" role="status">
                Added {added.value.join(", ")}. Connect {added.value.length === 1 ? "it" : "them"}
                {" "}
                below, and enable {added.value.length === 1 ? "it" : "them"} in a workspace.
              </p>
            )
            : null}
          {toSet.value.length > 0
            ? (
              <p class="note" role="note">
                Set {toSet.value.join(", ")}{" "}
                in Lass's environment before connecting it: the record reads{" "}
                {toSet.value.length === 1 ? "it" : "them"} from there.
              </p>
            )
            : null}
          {serversError.value
            ? <p class="error" role="alert">Live status unavailable: {serversError.value}</p>
            : null}
        </>
      }
      tools={
        <>
          <ImportServers
            onAdded={(ids) => {
              added.value = ids;
              toSet.value = [];
            }}
          />
          <RegistryServers
            onAdded={({ id, envVariables }) => {
              added.value = [id];
              toSet.value = envVariables;
            }}
          />
        </>
      }
      blank={() => ({ id: "", name: "", transport: "stdio", command: "" })}
      summary={(record) => <ServerSummary record={record} />}
      actions={(record) => <ServerActions record={record} />}
      Editor={ServerEditor}
    />
  );
}
