/** Settings: models (`llms[]`). */
import { type EditorProps, RecordSection, TextField } from "./kit.tsx";
import type { SectionProps } from "./page.tsx";

function Editor({ draft }: EditorProps) {
  return <TextField draft={draft} name="name" label="Name" />;
}

/** The models section. */
export function ModelsSection({ selected }: SectionProps) {
  return (
    <RecordSection
      section="llms"
      slug="models"
      title="Models"
      noun="model profile"
      selected={selected}
      blank={() => ({ id: "", name: "" })}
      summary={(record) => String(record.id)}
      Editor={Editor}
    />
  );
}
