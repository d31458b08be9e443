/** Settings: workspaces (`workspaces[]`). */
import { type EditorProps, RecordSection, TextField } from "./kit.tsx";
import type { SectionProps } from "./page.tsx";

function Editor({ draft }: EditorProps) {
  return <TextField draft={draft} name="name" label="Name" />;
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
      blank={() => ({ id: "", name: "" })}
      summary={(record) => String(record.id)}
      Editor={Editor}
    />
  );
}
