/** What a skill preview shows: its fields, problems, instructions and bundled files. */
import type { SkillPreview } from "../../wire/skills.ts";
import { CodeText } from "../code_text.tsx";

/** Errors (the thing cannot be used) and warnings (shown, change nothing), as two lists. */
export function Problems(props: { errors: string[]; warnings?: string[] }) {
  const warnings = props.warnings ?? [];
  if (props.errors.length === 0 && warnings.length === 0) return null;
  return (
    <div class="problems">
      {props.errors.length > 0
        ? (
          <ul class="problem-list errors" aria-label="Errors">
            {props.errors.map((error) => (
              <li key={error}>
                <CodeText text={error} />
              </li>
            ))}
          </ul>
        )
        : null}
      {warnings.length > 0
        ? (
          <ul class="problem-list warnings" aria-label="Warnings">
            {warnings.map((warning) => (
              <li key={warning}>
                <CodeText text={warning} />
              </li>
            ))}
          </ul>
        )
        : null}
    </div>
  );
}

function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** A loaded skill: name, description, other frontmatter, problems, body and files. */
export function SkillPreviewView({ preview }: { preview: SkillPreview }) {
  const lines = preview.body === "" ? 0 : preview.body.split("\n").length;
  const extra: [string, string][] = [
    ["License", preview.license ?? ""],
    ["Compatibility", preview.compatibility ?? ""],
    ["Allowed tools (not enforced)", preview.allowedTools ?? ""],
    ...Object.entries(preview.metadata ?? {}).map(([key, value]): [string, string] => [
      `metadata.${key}`,
      value,
    ]),
  ];
  const shown = extra.filter(([, value]) => value !== "");
  return (
    <section class="preview-panel" aria-label="Skill preview">
      <header class="preview-head">
        <strong>{preview.name || "(no name)"}</strong>
        {preview.errors.length > 0
          ? <span class="badge badge-error">not usable</span>
          : <span class="badge badge-ok">usable</span>}
      </header>
      {preview.description ? <p class="preview-description">{preview.description}</p> : null}
      <Problems errors={preview.errors} warnings={preview.warnings} />
      {shown.length > 0
        ? (
          <dl class="preview-facts">
            {shown.map((
              [label, value],
            ) => [<dt key={`${label}-t`}>{label}</dt>, <dd key={label}>{value}</dd>])}
          </dl>
        )
        : null}
      <details class="preview-body" open>
        <summary>Instructions ({lines} {lines === 1 ? "line" : "lines"})</summary>
        {lines > 0 ? <pre class="code">{preview.body}</pre> : <p class="hint">No body.</p>}
      </details>
      <div class="preview-files">
        <strong>Bundled files</strong>
        {preview.files.length === 0 ? <p class="hint">None.</p> : (
          <ul aria-label="Bundled files">
            {preview.files.map((file) => (
              <li key={file.path}>
                <code>{file.path}</code> <span class="hint">{sizeOf(file.size)}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
