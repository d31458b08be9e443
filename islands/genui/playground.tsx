/**
 * The UI playground (`/playground`): a render-tool input edited as JSON beside what Lass makes of
 * it (`POST /api/ui/preview`: problems, repairs, the drawn surface), updated as one types; a
 * workspace picker and a repair toggle; below, every component of a catalog drawn.
 */
import { batch, signal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { ApiError } from "../api.ts";
import { bootstrap, describeError } from "../state.ts";
import type { SurfacePreview } from "./a2ui_api.ts";
import { previewSurface } from "./a2ui_api.ts";
import { loadExamples, type PlaygroundExample } from "./a2ui_examples.ts";
import { ProblemList } from "./a2ui_problems.tsx";
import { type A2uiClientAction, SurfaceView } from "./a2ui_surface.tsx";
import { headingRepeats } from "./a2ui_title.ts";
import { themeOf } from "./a2ui_theme.ts";
import CatalogPreview from "./catalog_preview.tsx";

/** How long typing must pause before the input is checked again. */
const DEBOUNCE_MS = 300;

// The page's state lives in the module, so a draft survives going to another page and back.
const draft = signal("");
/** The preview's workspace; empty: none (every catalog, nothing denied). */
const workspaceId = signal("");
const repair = signal(true);
const examples = signal<PlaygroundExample[]>([]);
const examplesError = signal<string | null>(null);
const parseError = signal<string | null>(null);
const preview = signal<SurfacePreview | null>(null);
const previewError = signal<{ message: string; details: string[] } | null>(null);
const checking = signal(false);
/** The preview shown is of an earlier input (the current one is not JSON or failed). */
const stale = signal(false);
const lastAction = signal<A2uiClientAction | null>(null);
const catalogChoice = signal("standard");
const catalogsOpen = signal(false);
const messagesOpen = signal(false);

let timer: ReturnType<typeof setTimeout> | undefined;
let requests = 0;

/** Checks the draft now: parses it, then asks Lass; older answers are dropped. */
async function check(): Promise<void> {
  clearTimeout(timer);
  let input: unknown;
  try {
    input = JSON.parse(draft.peek());
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    batch(() => {
      parseError.value = `Not valid JSON: ${text}`;
      stale.value = preview.peek() !== null;
    });
    return;
  }
  parseError.value = null;
  const request = ++requests;
  checking.value = true;
  try {
    const answer = await previewSurface({
      input,
      ...(workspaceId.peek() && { workspaceId: workspaceId.peek() }),
      repair: repair.peek(),
    });
    if (request !== requests) return;
    batch(() => {
      preview.value = answer;
      previewError.value = null;
      stale.value = false;
      lastAction.value = null;
    });
  } catch (error) {
    if (request !== requests) return;
    const details = error instanceof ApiError
      ? error.details.map((detail) => `${detail.path}: ${detail.message}`)
      : [];
    batch(() => {
      previewError.value = { message: describeError(error), details };
      stale.value = preview.peek() !== null;
    });
  } finally {
    if (request === requests) checking.value = false;
  }
}

/** Checks the draft once typing pauses. */
function checkSoon(): void {
  clearTimeout(timer);
  timer = setTimeout(() => void check(), DEBOUNCE_MS);
}

function applyExample(example: PlaygroundExample): void {
  draft.value = JSON.stringify(example.input, null, 2);
  void check();
}

/** Reads the examples of the chosen workspace's render tool; fills an empty draft. */
async function readExamples(): Promise<void> {
  try {
    const list = await loadExamples(workspaceId.peek());
    batch(() => {
      examples.value = list;
      examplesError.value = null;
    });
    if (draft.peek().trim() === "") applyExample(list[0]);
  } catch (error) {
    examplesError.value = `The examples could not be read: ${describeError(error)}`;
  }
}

function Controls() {
  const workspaces = bootstrap.value?.config.workspaces ?? [];
  return (
    <div class="playground-controls">
      <span class="picker">
        <label for="playground-workspace">Workspace</label>
        <select
          id="playground-workspace"
          value={workspaceId.value}
          onChange={(event) => {
            workspaceId.value = event.currentTarget.value;
            void readExamples();
            void check();
          }}
        >
          <option value="">None: every catalog</option>
          {workspaces.map((workspace) => (
            <option key={workspace.id} value={workspace.id}>{workspace.name}</option>
          ))}
        </select>
      </span>
      <span class="picker">
        <input
          id="playground-repair"
          type="checkbox"
          checked={repair.value}
          onChange={(event) => {
            repair.value = event.currentTarget.checked;
            void check();
          }}
        />
        <label for="playground-repair">Repair small mistakes</label>
      </span>
      <span class="picker">
        <label for="playground-example">Example</label>
        <select
          id="playground-example"
          value=""
          disabled={examples.value.length === 0}
          onChange={(event) => {
            const example = examples.peek()[Number(event.currentTarget.value)];
            if (example) applyExample(example);
          }}
        >
          <option value="">Replace the input with…</option>
          {examples.value.map((example, i) => (
            <option key={i} value={String(i)}>{example.label}</option>
          ))}
        </select>
      </span>
      {examplesError.value ? <p class="error" role="alert">{examplesError.value}</p> : null}
    </div>
  );
}

function Editor() {
  return (
    <div class="playground-editor">
      <div class="playground-editor-head">
        <label for="playground-input">Render-tool input (JSON)</label>
        <button
          type="button"
          disabled={parseError.value !== null}
          onClick={() => {
            try {
              draft.value = JSON.stringify(JSON.parse(draft.peek()), null, 2);
            } catch {
              // The draft stopped parsing since the last check: say so now.
              void check();
            }
          }}
        >
          Format
        </button>
      </div>
      <textarea
        id="playground-input"
        spellcheck={false}
        aria-invalid={parseError.value ? true : undefined}
        aria-describedby={parseError.value ? "playground-parse-error" : undefined}
        value={draft.value}
        onInput={(event) => {
          draft.value = event.currentTarget.value;
          checkSoon();
        }}
      />
      {parseError.value
        ? <p id="playground-parse-error" class="error" role="alert">{parseError.value}</p>
        : null}
    </div>
  );
}

function Outcome() {
  const shown = preview.value;
  const failed = previewError.value;
  const theme = workspaceId.value ? themeOf(bootstrap.value?.config, workspaceId.value) : undefined;
  return (
    <div class={stale.value ? "playground-outcome stale" : "playground-outcome"}>
      <p class="note" role="status">
        {checking.value
          ? "Checking…"
          : stale.value
          ? "Showing the last input that could be checked."
          : shown
          ? shown.ok
            ? `Shown as the surface ${shown.surfaceId}${
              shown.catalogId ? ` (${shown.catalogId})` : ""
            }.`
            : "Not shown: fix the problems below."
          : ""}
      </p>
      {failed
        ? (
          <div class="error" role="alert">
            {failed.message}
            {failed.details.length > 0
              ? <ul>{failed.details.map((detail, i) => <li key={i}>{detail}</li>)}</ul>
              : null}
          </div>
        )
        : null}
      <section class="playground-problems" aria-labelledby="playground-problems-title">
        <h2 id="playground-problems-title">Problems</h2>
        {shown ? <ProblemList problems={shown.problems} /> : null}
      </section>
      <section class="playground-rendering" aria-labelledby="playground-rendering-title">
        <h2 id="playground-rendering-title">Rendering</h2>
        {shown?.ok
          ? (
            <div class="a2ui">
              {shown.title && !headingRepeats(shown.messages, shown.title)
                ? <h3 class="a2ui-title">{shown.title}</h3>
                : null}
              <SurfaceView
                messages={shown.messages}
                theme={theme}
                onAction={(action) => lastAction.value = action}
              />
            </div>
          )
          : <p class="note">Nothing to show.</p>}
        {lastAction.value
          ? (
            <div class="playground-action" role="status">
              <h3>Last action</h3>
              <pre class="json">{JSON.stringify(lastAction.value, null, 2)}</pre>
            </div>
          )
          : null}
      </section>
      {shown?.ok
        ? (
          <details
            class="raw"
            open={messagesOpen.value}
            onToggle={(event) => messagesOpen.value = event.currentTarget.open}
          >
            <summary>A2UI messages</summary>
            {/* Written out only when open: a large input makes a large text. */}
            {messagesOpen.value
              ? <pre class="json">{JSON.stringify(shown.messages, null, 2)}</pre>
              : null}
          </details>
        )
        : null}
    </div>
  );
}

function Components() {
  const catalogs = [
    { id: "standard", name: "Standard (A2UI basic catalog)" },
    ...(bootstrap.value?.catalogs ?? []),
  ];
  return (
    <details
      class="playground-components"
      open={catalogsOpen.value}
      onToggle={(event) => catalogsOpen.value = event.currentTarget.open}
    >
      <summary>
        <h2>Components of a catalog</h2>
      </summary>
      <span class="picker">
        <label for="playground-catalog">Catalog</label>
        <select
          id="playground-catalog"
          value={catalogChoice.value}
          onChange={(event) => catalogChoice.value = event.currentTarget.value}
        >
          {catalogs.map((catalog) => (
            <option key={catalog.id} value={catalog.id}>{catalog.name}</option>
          ))}
        </select>
      </span>
      {catalogsOpen.value
        ? <CatalogPreview key={catalogChoice.value} catalogId={catalogChoice.value} />
        : null}
    </details>
  );
}

/** The playground page. */
export default function Page({ path }: { path: string }) {
  useEffect(() => {
    if (examples.peek().length === 0) void readExamples();
    else if (!preview.peek()) void check();
  }, []);
  return (
    <div class="playground" data-path={path}>
      <h1>UI playground</h1>
      <p class="note">
        Write a render-tool input (what the model passes to{" "}
        <code>render_ui</code>) and see the problems Lass finds, what it repairs and the surface it
        draws. Nothing is saved.
      </p>
      <Controls />
      <div class="playground-split">
        <Editor />
        <Outcome />
      </div>
      <Components />
    </div>
  );
}
