/** Settings: catalogs (`catalogs[]`). */
import { type EditorProps, RecordSection, TextField } from "./kit.tsx";
import type { SectionProps } from "./page.tsx";

function Editor({ draft }: EditorProps) {
  return <TextField draft={draft} name="name" label="Name" />;
}

/** The catalogs section. */
export function CatalogsSection({ selected }: SectionProps) {
  return (
    <RecordSection
      section="catalogs"
      slug="catalogs"
      title="Catalogs"
      noun="catalog"
      selected={selected}
      blank={() => ({ id: "", name: "" })}
      summary={(record) => String(record.id)}
      Editor={Editor}
    />
  );
}
