/** Settings: remote agents (`agents[]`) over A2A or AG-UI, with a Test button. */
import { testAgent } from "./agents_api.ts";
import { AgentTestResult, probeSentence } from "./agents_probe.tsx";
import { CheckActions, CheckButton, ListTest, useCheck } from "./checks.tsx";
import { CheckField, LinesField, SelectField, TextField } from "./fields.tsx";
import { MoreErrors, setField } from "./form.tsx";
import { type EditorProps, RecordSection } from "./kit.tsx";
import type { SectionProps } from "./types.ts";

const PROTOCOLS: [string, string][] = [["a2a", "A2A"], ["ag-ui", "AG-UI"]];

function Editor({ draft }: EditorProps) {
  const test = useCheck(testAgent, { prefix: "agent" });
  const protocol = String(draft.value.protocol ?? "a2a");
  return (
    <div class="agent-editor">
      <MoreErrors errors={test.errors.value}>
        <TextField draft={draft} name="name" label="Name" required />
        <SelectField
          draft={draft}
          name="protocol"
          label="Protocol"
          options={PROTOCOLS}
          onChange={(value) => {
            setField(draft, "protocol", value);
            if (value !== "ag-ui") setField(draft, "shareTools", undefined);
          }}
        />
        <TextField
          draft={draft}
          name="url"
          label="URL"
          type="url"
          placeholder={protocol === "a2a" ? "http://127.0.0.1:9999" : "http://127.0.0.1:8000/run"}
          hint={protocol === "a2a"
            ? "The agent card's URL, or the agent's base URL (the card is then at /.well-known/agent-card.json)."
            : "The run endpoint of the AG-UI agent."}
        />
        <LinesField
          draft={draft}
          name="headers"
          label="Headers"
          shape="map"
          hint="NAME=value per line, sent with every request; values may be env:NAME or contain ${NAME}."
        />
        {protocol === "ag-ui"
          ? (
            <CheckField
              draft={draft}
              name="shareTools"
              label="Share the workspace's tools with the agent"
              hint="Offers the tool-server tools as frontend tools; Lass runs the calls, with the usual approvals."
            />
          )
          : null}
      </MoreErrors>
      <CheckActions
        hint="Reaches the agent with these settings (not saved) and sends a short message."
        refusal={test}
      >
        <CheckButton check={test} draft={draft} label="Test" busyLabel="Testing…" />
      </CheckActions>
      {test.result.value ? <AgentTestResult probe={test.result.value} /> : null}
    </div>
  );
}

/** The agents section. */
export function AgentsSection({ selected }: SectionProps) {
  return (
    <RecordSection
      section="agents"
      slug="agents"
      title="Remote agents"
      noun="remote agent"
      selected={selected}
      intro={
        <p>
          A workspace with an agent chats with it instead of a model. The turn streams like a
          model's.
        </p>
      }
      blank={() => ({ id: "", name: "", protocol: "a2a", url: "" })}
      summary={(record) => (
        <span>
          {String(record.protocol).toUpperCase()} · {String(record.url ?? "")}
          {record.shareTools ? " · shares tools" : ""}
        </span>
      )}
      actions={(record) => <ListTest record={record} test={testAgent} sentence={probeSentence} />}
      Editor={Editor}
    />
  );
}
