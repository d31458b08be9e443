/** Settings: workspaces (`workspaces[]`), every field, the active one, and export. */
import { useSignal } from "@preact/signals";
import { ExportButton } from "../export/button.tsx";
import { bootstrap } from "../state.ts";
import { ChecklistField } from "./choices.tsx";
import { CheckField, LinesField, SelectField, TextField } from "./fields.tsx";
import type { RecordDraft } from "./form.tsx";
import { type EditorProps, RecordSection, writeConfig } from "./kit.tsx";
import { GenerativeUiFields } from "./workspaces_genui.tsx";
import type { SectionProps } from "./types.ts";

function Editor({ draft }: EditorProps) {
  const config = bootstrap.value?.config;
  const llms = config?.llms ?? [];
  const agents = config?.agents ?? [];
  const states = new Map((bootstrap.value?.mcp ?? []).map((state) => [state.id, state]));
  const skills = new Map((bootstrap.value?.skills ?? []).map((skill) => [skill.id, skill]));
  return (
    <div class="workspace-editor">
      <TextField draft={draft} name="name" label="Name" required />
      <SelectField
        draft={draft}
        name="llmId"
        label="Model"
        options={[
          ["", `The first model${llms[0] ? ` (${llms[0].name})` : ""}`],
          ...llms.map((llm): [string, string] => [llm.id, `${llm.name} · ${llm.model}`]),
        ]}
      />
      <SelectField
        draft={draft}
        name="agentId"
        label="Remote agent"
        hint="With an agent, chats go to it instead of the model."
        options={[
          ["", "None: chat with the model"],
          ...agents.map((
            agent,
          ): [string, string] => [agent.id, `${agent.name} · ${agent.protocol}`]),
        ]}
      />
      <ChecklistField
        draft={draft}
        name="mcpServerIds"
        legend="Tool servers"
        options={(config?.mcpServers ?? []).map((server) => [
          server.id,
          server.name,
          states.get(server.id)?.status,
        ])}
        empty="No tool servers are configured (Settings → Tool servers)."
      />
      <ChecklistField
        draft={draft}
        name="skillIds"
        legend="Skills"
        options={(config?.skills ?? []).map((skill) => {
          const loaded = skills.get(skill.id);
          return [
            skill.id,
            loaded?.name || skill.id,
            loaded && loaded.errors.length > 0
              ? "not usable: " + loaded.errors.join("; ")
              : undefined,
          ];
        })}
        empty="No skills are configured (Settings → Skills)."
      />
      <TextField draft={draft} name="systemPrompt" label="System prompt" multiline />
      <LinesField
        draft={draft}
        name="starterPrompts"
        label="Starter prompts"
        shape="list"
        hint="One per line; an empty chat shows them as buttons."
      />
      <TextField
        draft={draft}
        name="maxSteps"
        label="Max steps"
        type="number"
        placeholder="12"
        hint="Model calls per turn, 1 to 100 (default 12)."
      />
      <TextField
        draft={draft}
        name="toolServerWaitMs"
        label="Wait for tool servers (ms)"
        type="number"
        placeholder="3000"
        hint="How long a turn waits in all for servers still connecting (default 3000); servers in error are left out at once."
      />
      <CheckField
        draft={draft}
        name="requireApproval"
        label="Ask before every tool call"
      />
      <GenerativeUiFields draft={draft} />
    </div>
  );
}

/** One line about a workspace: its model or agent, tools, skills, generative UI. */
function Summary({ record }: { record: RecordDraft }) {
  const config = bootstrap.value?.config;
  const active = config?.activeWorkspaceId === record.id;
  const agent = (config?.agents ?? []).find((known) => known.id === record.agentId);
  const llm = (config?.llms ?? []).find((known) => known.id === record.llmId);
  const count = (key: string, noun: string) => {
    const n = Array.isArray(record[key]) ? (record[key] as unknown[]).length : 0;
    return `${n} ${noun}${n === 1 ? "" : "s"}`;
  };
  const genui = record.generativeUi === false
    ? "no generative UI"
    : typeof record.generativeUi === "object"
    ? "custom generative UI"
    : "generative UI";
  return (
    <span>
      {active ? <span class="badge badge-active">active</span> : null}{" "}
      {agent ? `agent ${agent.name}` : llm ? llm.name : "first model"} ·{" "}
      {count("mcpServerIds", "tool server")} · {count("skillIds", "skill")} · {genui}
    </span>
  );
}

/** "Set as active" (unless it is) and "Export" of one workspace in the list. */
function Actions({ record }: { record: RecordDraft }) {
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const active = bootstrap.value?.config.activeWorkspaceId === record.id;
  const label = String(record.name ?? record.id);
  const activate = async () => {
    busy.value = true;
    const errors = await writeConfig((config) => ({ ...config, activeWorkspaceId: record.id }));
    busy.value = false;
    error.value = errors ? Object.values(errors).join("; ") : null;
  };
  return (
    <>
      {error.value ? <span class="error" role="alert">{error.value}</span> : null}
      {active ? null : (
        <button
          type="button"
          aria-label={`Set ${label} as active`}
          disabled={busy.value}
          onClick={activate}
        >
          Set as active
        </button>
      )}
      <ExportButton workspaceId={record.id} label={`Export ${label}`} />
    </>
  );
}

/** The workspaces section. */
export function WorkspacesSection({ selected }: SectionProps) {
  return (
    <RecordSection
      section="workspaces"
      slug="workspaces"
      title="Workspaces"
      noun="workspace"
      selected={selected}
      intro={
        <p>
          A workspace puts a model (or a remote agent), tool servers, skills and a system prompt
          together. New chats use the active one unless another is picked.
        </p>
      }
      blank={() => ({ id: "", name: "" })}
      summary={(record) => <Summary record={record} />}
      actions={(record) => <Actions record={record} />}
      Editor={Editor}
    />
  );
}
