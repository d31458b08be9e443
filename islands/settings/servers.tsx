/** Settings: tool servers (`mcpServers[]`). */
import { type EditorProps, RecordSection, TextField } from "./kit.tsx";
import type { SectionProps } from "./page.tsx";

function Editor({ draft }: EditorProps) {
  return <TextField draft={draft} name="name" label="Name" />;
}

/** The tool servers section. */
export function ServersSection({ selected }: SectionProps) {
  return (
    <RecordSection
      section="mcpServers"
      slug="servers"
      title="Tool servers"
      noun="tool server"
      selected={selected}
      blank={() => ({ id: "", name: "" })}
      summary={(record) => String(record.id)}
      Editor={Editor}
    />
  );
}
