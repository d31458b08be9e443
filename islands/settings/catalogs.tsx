/** Settings: UI component catalogs (`catalogs[]`) from a file, a URL or inline JSON, with previews. */
import { useSignal } from "@preact/signals";
import type { CatalogView } from "../../wire/catalogs.ts";
import { bootstrap, describeError, loadBootstrap } from "../state.ts";
import { listCatalogs, STANDARD_CATALOG } from "../catalogs.ts";
import { previewCatalog } from "./catalogs_api.ts";
import { CatalogPanel, RenderedPreviews } from "./catalogs_view.tsx";
import { CheckActions, CheckButton, useCheck } from "./checks.tsx";
import { SourceField } from "./choices.tsx";
import { JsonField, TextField } from "./fields.tsx";
import { MoreErrors, type RecordDraft } from "./form.tsx";
import { type EditorProps, RecordSection, recordsOf } from "./kit.tsx";
import type { SectionProps } from "./types.ts";

function Editor({ draft, original }: EditorProps) {
  const preview = useCheck(previewCatalog, {
    prefix: "catalog",
    start: original ?? undefined,
  });
  return (
    <div class="catalog-editor">
      <MoreErrors errors={preview.errors.value}>
        <TextField
          draft={draft}
          name="name"
          label="Name (override)"
          hint="Replaces the catalog's title when not empty."
        />
        <SourceField
          draft={draft}
          options={[["path", "A file"], ["url", "A URL"], ["catalog", "Inline JSON"]]}
        >
          {(source) =>
            source === "path"
              ? (
                <TextField
                  draft={draft}
                  name="path"
                  label="Path"
                  placeholder="catalogs/cards.json"
                  hint="A catalog JSON file; relative paths start at the config file's folder."
                />
              )
              : source === "url"
              ? (
                <TextField
                  draft={draft}
                  name="url"
                  label="URL"
                  type="url"
                  placeholder="https://example.com/catalog.json"
                  hint="Fetched with a 10 s deadline; env references are resolved."
                />
              )
              : (
                <JsonField
                  draft={draft}
                  name="catalog"
                  label="Catalog JSON"
                  rows={12}
                  hint='{"catalogId": "https://…", "components": {"Name": {JSON Schema}}, "functions"?: …}'
                />
              )}
        </SourceField>
      </MoreErrors>
      <CheckActions
        hint="Loads the catalog with these settings, without saving it."
        refusal={preview}
      >
        <CheckButton check={preview} draft={draft} label="Preview" busyLabel="Loading…" />
      </CheckActions>
      {preview.result.value
        ? <CatalogPanel catalog={preview.result.value} label="Catalog preview" />
        : null}
      {original ? <RenderedPreviews catalogId={original.id} /> : null}
    </div>
  );
}

/** The built-in standard catalog, read-only, loaded when opened. */
function StandardCatalog() {
  const catalog = useSignal<CatalogView | null>(null);
  const failure = useSignal<string | null>(null);
  const load = async () => {
    if (catalog.value) return;
    try {
      const all = await listCatalogs();
      catalog.value = all.find((known) => known.id === STANDARD_CATALOG) ?? null;
      failure.value = catalog.value ? null : "Lass listed no standard catalog.";
    } catch (error) {
      failure.value = describeError(error);
    }
  };
  return (
    <details
      class="standard-catalog"
      onToggle={(event) => {
        if ((event.currentTarget as HTMLDetailsElement).open) void load();
      }}
    >
      <summary>
        Standard catalog <code>{STANDARD_CATALOG}</code> (built in, read-only)
      </summary>
      {failure.value ? <p class="error" role="alert">{failure.value}</p> : null}
      {catalog.value
        ? (
          <>
            <CatalogPanel catalog={catalog.value} label="Standard catalog" />
            <RenderedPreviews catalogId={STANDARD_CATALOG} />
          </>
        )
        : failure.value
        ? null
        : <p class="loading">Loading…</p>}
    </details>
  );
}

/** One line about a configured catalog, from its loaded summary. */
function Summary({ record }: { record: RecordDraft }) {
  const loaded = bootstrap.value?.catalogs.find((catalog) => catalog.id === record.id);
  const where = record.catalog !== undefined ? "inline" : String(record.path ?? record.url ?? "");
  return (
    <span>
      {loaded && loaded.name !== record.id ? `${loaded.name} · ` : ""}
      {where}
      {loaded && loaded.errors.length > 0
        ? <span class="summary-problems error">{` · ${loaded.errors.join("; ")}`}</span>
        : null}
    </span>
  );
}

/** Reads every catalog file and URL again (they are cached until the records change). */
function ReloadButton() {
  const busy = useSignal(false);
  const failure = useSignal<string | null>(null);
  const reload = async () => {
    busy.value = true;
    try {
      await listCatalogs(true);
      await loadBootstrap();
      failure.value = null;
    } catch (error) {
      failure.value = describeError(error);
    } finally {
      busy.value = false;
    }
  };
  return (
    <>
      {failure.value ? <span class="error" role="alert">{failure.value}</span> : null}
      <button
        type="button"
        disabled={busy.value}
        title="Read catalog files and URLs again"
        onClick={reload}
      >
        {busy.value ? "Reloading…" : "Reload"}
      </button>
    </>
  );
}

/** The catalogs section. */
export function CatalogsSection({ selected }: SectionProps) {
  const count = recordsOf("catalogs").length;
  return (
    <RecordSection
      section="catalogs"
      slug="catalogs"
      title="Catalogs"
      noun="catalog"
      selected={selected}
      intro={
        <>
          <p>
            The components the render tool may use. Workspaces offer the standard catalog and
            {count > 0 ? " these" : " any"}{" "}
            configured catalogs unless their generative-UI settings say otherwise.
          </p>
          <StandardCatalog />
        </>
      }
      tools={count > 0 ? <ReloadButton /> : null}
      blank={() => ({ id: "" })}
      summary={(record) => <Summary record={record} />}
      Editor={Editor}
    />
  );
}
