/**
 * Each component of a catalog drawn from its example (`POST /api/ui/preview` with
 * `{component: {catalogId, name}}`), with its name, description and problems.
 */
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { describeError } from "../state.ts";
import { type CatalogComponent, type CatalogView } from "../../wire/catalogs.ts";
import { type ComponentPreview, previewComponent } from "./a2ui_api.ts";
import { listCatalogs } from "../catalogs.ts";
import { ProblemList } from "./a2ui_problems.tsx";
import { SurfaceView } from "./a2ui_surface.tsx";

/** At most this many component previews are asked for at once (a catalog may have dozens). */
export const PREVIEWS_AT_ONCE = 4;

let previewsRunning = 0;
const previewsWaiting: (() => void)[] = [];

/** Starts the next waiting preview when there is room. */
function startPreviews(): void {
  while (previewsRunning < PREVIEWS_AT_ONCE && previewsWaiting.length > 0) {
    previewsRunning++;
    previewsWaiting.shift()!();
  }
}

/**
 * Runs `request` once fewer than {@link PREVIEWS_AT_ONCE} previews are running; the returned
 * function drops it if it has not started yet (its card left the page).
 */
function queuePreview(request: () => Promise<unknown>): () => void {
  const start = () => {
    request().finally(() => {
      previewsRunning--;
      startPreviews();
    }).catch(() => {});
  };
  previewsWaiting.push(start);
  startPreviews();
  return () => {
    const at = previewsWaiting.indexOf(start);
    if (at >= 0) previewsWaiting.splice(at, 1);
  };
}

/** The props of {@link CatalogPreview}. */
export interface CatalogPreviewProps {
  /** The catalog's record id (`standard` for the standard catalog); its A2UI URI works too. */
  catalogId: string;
}

/** One component: its example drawn, or why it cannot be. */
function ComponentCard({ catalog, component }: {
  catalog: CatalogView;
  component: CatalogComponent;
}) {
  const preview = useSignal<ComponentPreview | null>(null);
  const error = useSignal<string | null>(null);
  const acted = useSignal<string | null>(null);
  useEffect(() => {
    let current = true;
    const drop = queuePreview(() =>
      previewComponent(catalog.catalogId, component.name).then(
        (answer) => {
          if (current) preview.value = answer;
        },
        (failure) => {
          if (current) error.value = describeError(failure);
        },
      )
    );
    return () => {
      current = false;
      drop();
    };
  }, [catalog.catalogId, component.name]);
  const shown = preview.value;
  return (
    <article
      class="component-preview"
      aria-label={`Component ${component.name}`}
      data-component={component.name}
    >
      <h3>{component.name}</h3>
      {component.description ? <p class="note">{component.description}</p> : null}
      {error.value ? <p class="error" role="alert">{error.value}</p> : null}
      {!shown && !error.value ? <p class="loading">Loading…</p> : null}
      {shown ? <ProblemList problems={shown.problems} compact /> : null}
      {shown?.ok
        ? (
          <SurfaceView
            messages={shown.messages}
            onAction={(action) => acted.value = `It sent the action "${action.name}".`}
          />
        )
        : null}
      {acted.value ? <p class="note" role="status">{acted.value}</p> : null}
    </article>
  );
}

/** Renders every component of a catalog. */
export default function CatalogPreview({ catalogId }: CatalogPreviewProps) {
  const catalog = useSignal<CatalogView | null>(null);
  const error = useSignal<string | null>(null);
  useEffect(() => {
    let current = true;
    catalog.value = null;
    error.value = null;
    listCatalogs().then(
      (list) => {
        if (!current) return;
        const found = list.find((candidate) =>
          candidate.id === catalogId || candidate.catalogId === catalogId
        );
        if (found) catalog.value = found;
        else error.value = `No catalog has the id ${catalogId}.`;
      },
      (failure) => {
        if (current) error.value = describeError(failure);
      },
    );
    return () => {
      current = false;
    };
  }, [catalogId]);

  if (error.value) return <p class="error" role="alert">{error.value}</p>;
  const shown = catalog.value;
  if (!shown) return <p class="loading">Loading the catalog…</p>;
  return (
    <div class="catalog-preview" data-catalog={shown.id}>
      <p class="note">
        {shown.name}: {shown.components.length} component{shown.components.length === 1 ? "" : "s"}
        {" "}
        (<code>{shown.catalogId}</code>)
      </p>
      {shown.errors.length > 0
        ? (
          <ul class="catalog-errors" aria-label="Catalog errors">
            {shown.errors.map((text, i) => <li key={i} class="error">{text}</li>)}
          </ul>
        )
        : null}
      <div class="component-grid">
        {shown.components.map((component) => (
          <ComponentCard key={component.name} catalog={shown} component={component} />
        ))}
      </div>
    </div>
  );
}
