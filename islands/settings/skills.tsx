/** Settings: skills (`skills[]`). */
import { type EditorProps, RecordSection, TextField } from "./kit.tsx";
import type { SectionProps } from "./page.tsx";

function Editor({ draft }: EditorProps) {
  return <TextField draft={draft} name="name" label="Name" />;
}

/** The skills section. */
export function SkillsSection({ selected }: SectionProps) {
  return (
    <RecordSection
      section="skills"
      slug="skills"
      title="Skills"
      noun="skill"
      selected={selected}
      blank={() => ({ id: "", name: "" })}
      summary={(record) => String(record.id)}
      Editor={Editor}
    />
  );
}
