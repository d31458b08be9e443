/** Settings: skills (`skills[]`), from a folder or inline, with a preview and discovery. */
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { ApiError } from "../api.ts";
import { bootstrap, describeError } from "../state.ts";
import {
  type EditorProps,
  errorsAt,
  type FieldErrors,
  MoreErrors,
  type RecordDraft,
  RecordSection,
  setField,
  TextField,
} from "./kit.tsx";
import type { SectionProps } from "./page.tsx";
import { previewSkill, type SkillPreview } from "./skills_api.ts";
import { DiscoverSkills } from "./skills_discover.tsx";
import { SkillPreviewView } from "./skills_preview.tsx";
import { ChoiceField } from "./workspaces_fields.tsx";

type Source = "path" | "content";

/** What a new inline skill starts with. */
const TEMPLATE = "---\nname: my-skill\ndescription: What it does, and when to use it.\n---\n\n" +
  "# Instructions\n";

/** A record as the preview takes it: without the id, which only names a draft. */
function previewable(draft: RecordDraft): Record<string, unknown> {
  const { id: _id, ...rest } = draft;
  return rest;
}

function Editor({ draft, isNew }: EditorProps) {
  const source = useSignal<Source>(draft.peek().content !== undefined ? "content" : "path");
  const preview = useSignal<SkillPreview | null>(null);
  const previewErrors = useSignal<FieldErrors>({});
  const failure = useSignal<string | null>(null);
  const busy = useSignal(false);

  const runPreview = async () => {
    busy.value = true;
    try {
      preview.value = await previewSkill(previewable(draft.peek()));
      previewErrors.value = {};
      failure.value = null;
    } catch (error) {
      preview.value = null;
      previewErrors.value = error instanceof ApiError ? errorsAt(error.details, "skill") : {};
      failure.value = describeError(error);
    } finally {
      busy.value = false;
    }
  };
  useEffect(() => {
    if (!isNew) void runPreview();
  }, []);

  const choose = (next: Source) => {
    source.value = next;
    setField(draft, next === "path" ? "content" : "path", undefined);
    if (next === "content" && !draft.peek().content) setField(draft, "content", TEMPLATE);
  };

  return (
    <div class="skill-editor">
      <MoreErrors errors={previewErrors.value}>
        <ChoiceField
          name="source"
          legend="Source"
          value={source.value}
          options={[["path", "A folder or SKILL.md"], ["content", "Inline SKILL.md"]]}
          onChange={choose}
        />
        {source.value === "path"
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
      <div class="preview-actions">
        <button type="button" onClick={runPreview} disabled={busy.value}>
          {busy.value ? "Loading…" : "Preview"}
        </button>
        <span class="hint">Loads the skill as the config would, without saving it.</span>
      </div>
      {failure.value ? <p class="error" role="alert">{failure.value}</p> : null}
      {preview.value ? <SkillPreviewView preview={preview.value} /> : null}
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
            {loaded.errors.join("; ")}
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
