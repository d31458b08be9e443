/** Finding the skills under a folder and adding the chosen ones to the config in one write. */
import { useSignal } from "@preact/signals";
import type { DiscoveredSkill } from "../../wire/skills.ts";
import { bootstrap, describeError } from "../state.ts";
import { type RecordDraft, useUniqueId } from "./form.tsx";
import { recordsOf, writeConfig } from "./kit.tsx";
import { discoverSkills } from "./skills_api.ts";
import { Problems } from "./skills_preview.tsx";

/** A record id made from a skill's name, not in `taken` (which it is added to). */
export function idFor(name: string, taken: Set<string>): string {
  const base = name.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^[^a-z0-9]+/, "")
    .slice(0, 56) || "skill";
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** The folder of the config file, where relative paths start. */
function configFolder(): string {
  const path = bootstrap.value?.configPath ?? "";
  return path.replace(/[\\/][^\\/]*$/, "");
}

/** The discover panel of the skills section. */
export function DiscoverSkills() {
  const inputId = useUniqueId("discover");
  const path = useSignal("");
  const found = useSignal<DiscoveredSkill[] | null>(null);
  const truncated = useSignal(false);
  const chosen = useSignal<string[]>([]);
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const status = useSignal<string | null>(null);
  const configured = new Set(recordsOf("skills").map((record) => String(record.path ?? "")));

  const discover = async (event: Event) => {
    event.preventDefault();
    busy.value = true;
    error.value = status.value = null;
    try {
      const answer = await discoverSkills(path.value.trim());
      found.value = answer.skills;
      truncated.value = answer.truncated === true;
      chosen.value = [];
    } catch (failure) {
      found.value = null;
      error.value = describeError(failure);
    } finally {
      busy.value = false;
    }
  };

  const add = async () => {
    const picked = (found.value ?? []).filter((skill) => chosen.value.includes(skill.path));
    let added: RecordDraft[] = [];
    busy.value = true;
    const errors = await writeConfig((config) => {
      const existing = (config.skills ?? []) as RecordDraft[];
      const taken = new Set(existing.map((record) => record.id));
      added = picked.map((skill) => ({
        id: idFor(skill.name || "skill", taken),
        path: skill.path,
      }));
      return { ...config, skills: [...existing, ...added] };
    }, "skills");
    busy.value = false;
    if (errors) {
      error.value = Object.values(errors).join("; ");
      return;
    }
    error.value = null;
    chosen.value = [];
    status.value = `Added ${added.length} ${added.length === 1 ? "skill" : "skills"}: ${
      added.map((record) => record.id).join(", ")
    }.`;
  };

  const toggle = (skillPath: string, on: boolean) => {
    chosen.value = on
      ? [...chosen.value, skillPath]
      : chosen.value.filter((known) => known !== skillPath);
  };

  return (
    <details class="discover">
      <summary>Discover skills in a folder</summary>
      <form class="discover-form" onSubmit={discover}>
        <label for={inputId}>Folder</label>
        <input
          id={inputId}
          type="text"
          value={path.value}
          placeholder="~/code/app"
          spellcheck={false}
          autoComplete="off"
          aria-describedby={`${inputId}-hint`}
          onInput={(event) => path.value = event.currentTarget.value}
        />
        <button type="submit" disabled={busy.value || path.value.trim() === ""}>
          {busy.value ? "Searching…" : "Discover"}
        </button>
      </form>
      <p class="hint" id={`${inputId}-hint`}>
        Absolute, under <code>~</code>, or relative to{" "}
        <code>{configFolder() || "the config's folder"}</code>. Conventional folders (<code>
          .agents/skills
        </code>, <code>.claude/skills</code>, …) come first.
      </p>
      {error.value ? <p class="error" role="alert">{error.value}</p> : null}
      {found.value === null
        ? null
        : found.value.length === 0
        ? <p class="hint" role="status">No skills under this folder.</p>
        : (
          <>
            <ul class="found-skills" aria-label="Skills found">
              {found.value.map((skill) => {
                const added = configured.has(skill.path);
                return (
                  <li key={skill.path} class={skill.shadowed ? "found shadowed" : "found"}>
                    <label>
                      <input
                        type="checkbox"
                        checked={added || chosen.value.includes(skill.path)}
                        disabled={added}
                        onChange={(event) => toggle(skill.path, event.currentTarget.checked)}
                      />{" "}
                      <strong>{skill.name || "(no name)"}</strong>
                    </label>
                    {added ? <span class="badge">added</span> : null}
                    {skill.shadowed ? <span class="badge">shadowed</span> : null}
                    {skill.errors.length > 0
                      ? <span class="badge badge-error">not usable</span>
                      : null}
                    <span class="found-description">{skill.description}</span>
                    <code class="found-path">{skill.path}</code>
                    <Problems errors={skill.errors} warnings={skill.warnings} />
                  </li>
                );
              })}
            </ul>
            {truncated.value
              ? (
                <p class="hint">
                  The search stopped at its bounds; pick a smaller folder to see more.
                </p>
              )
              : null}
            <button
              type="button"
              class="primary"
              disabled={busy.value || chosen.value.length === 0}
              onClick={add}
            >
              Add {chosen.value.length} {chosen.value.length === 1 ? "skill" : "skills"}
            </button>
          </>
        )}
      {status.value ? <p class="status-ok" role="status">{status.value}</p> : null}
    </details>
  );
}
