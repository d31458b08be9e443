/** Settings: UI component catalogs (`catalogs[]`) from a file, a URL or inline JSON, with previews. */
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { ApiError } from "../api.ts";
import { bootstrap, describeError, loadBootstrap } from "../state.ts";
import {
  type CatalogView,
  listCatalogs,
  previewCatalog,
  STANDARD_CATALOG,
} from "./catalogs_api.ts";
import { CatalogPanel, RenderedPreviews } from "./catalogs_view.tsx";
import {
  type EditorProps,
  errorsAt,
  type FieldErrors,
  JsonField,
  MoreErrors,
  type RecordDraft,
  RecordSection,
  recordsOf,
  setField,
  TextField,
} from "./kit.tsx";
import type { SectionProps } from "./page.tsx";
import { ChoiceField } from "./workspaces_fields.tsx";

type Source = "path" | "url" | "catalog";
const SOURCES: Source[] = ["path", "url", "catalog"];

function sourceOf(record: RecordDraft): Source {
  return SOURCES.find((source) => record[source] !== undefined) ?? "path";
}

/** A record as the preview takes it: without the id, which only names a draft. */
function previewable(draft: RecordDraft): Record<string, unknown> {
  const { id: _id, ...rest } = draft;
  return rest;
}

function Editor({ draft, isNew }: EditorProps) {
  const source = useSignal<Source>(sourceOf(draft.peek()));
  const preview = useSignal<CatalogView | null>(null);
  const previewErrors = useSignal<FieldErrors>({});
  const failure = useSignal<string | null>(null);
  const busy = useSignal(false);
  const savedId = isNew ? null : draft.peek().id;

  const runPreview = async () => {
    busy.value = true;
    try {
      preview.value = await previewCatalog(previewable(draft.peek()));
      previewErrors.value = {};
      failure.value = null;
    } catch (error) {
      preview.value = null;
      previewErrors.value = error instanceof ApiError ? errorsAt(error.details, "catalog") : {};
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
    for (const other of SOURCES) if (other !== next) setField(draft, other, undefined);
  };

  return (
    <div class="catalog-editor">
      <MoreErrors errors={previewErrors.value}>
        <TextField
          draft={draft}
          name="name"
          label="Name (override)"
          hint="Replaces the catalog's title when not empty."
        />
        <ChoiceField
          name="source"
          legend="Source"
          value={source.value}
          options={[["path", "A file"], ["url", "A URL"], ["catalog", "Inline JSON"]]}
          onChange={choose}
        />
        {source.value === "path"
          ? (
            <TextField
              draft={draft}
              name="path"
              label="Path"
              placeholder="catalogs/cards.json"
              hint="A catalog JSON file; relative paths start at the config file's folder."
            />
          )
          : source.value === "url"
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
      </MoreErrors>
      <div class="preview-actions">
        <button type="button" onClick={runPreview} disabled={busy.value}>
          {busy.value ? "Loading…" : "Preview"}
        </button>
        <span class="hint">Loads the catalog with these settings, without saving it.</span>
      </div>
      {failure.value ? <p class="error" role="alert">{failure.value}</p> : null}
      {preview.value ? <CatalogPanel catalog={preview.value} label="Catalog preview" /> : null}
      {savedId ? <RenderedPreviews catalogId={savedId} /> : null}
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
