/** Settings: agents (`agents[]`). */
import { type EditorProps, RecordSection, TextField } from "./kit.tsx";
import type { SectionProps } from "./page.tsx";

function Editor({ draft }: EditorProps) {
  return <TextField draft={draft} name="name" label="Name" />;
}

/** The agents section. */
export function AgentsSection({ selected }: SectionProps) {
  return (
    <RecordSection
      section="agents"
      slug="agents"
      title="Agents"
      noun="remote agent"
      selected={selected}
      blank={() => ({ id: "", name: "" })}
      summary={(record) => String(record.id)}
      Editor={Editor}
    />
  );
}
