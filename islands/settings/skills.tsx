/** Settings: skills (`skills[]`), from a folder or inline, with a preview and discovery. */
import { bootstrap } from "../state.ts";
import { CheckActions, CheckButton, useCheck } from "./checks.tsx";
import { SourceField } from "./choices.tsx";
import { TextField } from "./fields.tsx";
import { MoreErrors, type RecordDraft, setField } from "./form.tsx";
import { type EditorProps, RecordSection } from "./kit.tsx";
import { previewSkill } from "./skills_api.ts";
import { DiscoverSkills } from "./skills_discover.tsx";
import { SkillPreviewView } from "./skills_preview.tsx";
import type { SectionProps } from "./types.ts";
import { CodeText } from "../code_text.tsx";

/** What a new inline skill starts with. */
const TEMPLATE = "---\nname: my-skill\ndescription: What it does, and when to use it.\n---\n\n" +
  "# Instructions\n";

function Editor({ draft, original }: EditorProps) {
  const preview = useCheck(previewSkill, { prefix: "skill", start: original ?? undefined });
  return (
    <div class="skill-editor">
      <MoreErrors errors={preview.errors.value}>
        <SourceField
          draft={draft}
          options={[["path", "A folder or SKILL.md"], ["content", "Inline SKILL.md"]]}
          onChoose={(source) => {
            if (source === "content" && !draft.peek().content) {
              setField(draft, "content", TEMPLATE);
            }
          }}
        >
          {(source) =>
            source === "path"
              ? (
                <TextField
                  draft={draft}
                  name="path"
                  label="Path"
                  placeholder="~/skills/pdf-processing"
                  hint="A skill folder holding SKILL.md, or the file itself; relative paths start at the config file's folder."
                />
              )
              : (
                <TextField
                  draft={draft}
                  name="content"
                  label="SKILL.md"
                  multiline
                  hint="YAML frontmatter between --- lines (name, description, …), then the instructions in Markdown."
                />
              )}
        </SourceField>
        <TextField
          draft={draft}
          name="name"
          label="Name (override)"
          hint="Replaces the frontmatter's name when not empty."
        />
        <TextField
          draft={draft}
          name="description"
          label="Description (override)"
          multiline
          hint="Replaces the frontmatter's description when not empty."
        />
      </MoreErrors>
      <CheckActions
        hint="Loads the skill as the config would, without saving it."
        refusal={preview}
      >
        <CheckButton check={preview} draft={draft} label="Preview" busyLabel="Loading…" />
      </CheckActions>
      {preview.result.value ? <SkillPreviewView preview={preview.result.value} /> : null}
    </div>
  );
}

/** One line about a configured skill, from its loaded summary. */
function Summary({ record }: { record: RecordDraft }) {
  const loaded = bootstrap.value?.skills.find((skill) => skill.id === record.id);
  const where = record.content !== undefined ? "inline" : String(record.path ?? "");
  if (!loaded) return <span>{where}</span>;
  const parts = [loaded.name, loaded.description, where].filter((part) => part !== "");
  return (
    <span class="skill-summary">
      {parts.join(" · ")}
      {loaded.errors.length > 0
        ? (
          <span class="summary-problems error">
            {` · ${loaded.errors.length} ${loaded.errors.length === 1 ? "problem" : "problems"}: `}
            <CodeText text={loaded.errors.join("; ")} />
          </span>
        )
        : null}
    </span>
  );
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
      intro={
        <>
          <p>
            Agent Skills that workspaces can enable: the model sees their names and descriptions and
            loads one when a task calls for it.
          </p>
          <DiscoverSkills />
        </>
      }
      blank={() => ({ id: "" })}
      summary={(record) => <Summary record={record} />}
      Editor={Editor}
    />
  );
}
