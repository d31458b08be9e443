/** A model profile's Test and List models buttons, with their results, for the editor and the list. */
import { type Signal, useSignal } from "@preact/signals";
import { ApiError } from "../api.ts";
import { formatDuration } from "../format.ts";
import { describeError } from "../state.ts";
import { errorsAt, type FieldErrors, type RecordDraft, setField } from "./kit.tsx";
import {
  type ListedModel,
  listModels,
  type ProfileProbe,
  testableProfile,
  testProfile,
} from "./models_api.ts";

/** The state of a profile's test and model list. */
export interface ProfileChecks {
  testing: Signal<boolean>;
  probe: Signal<ProfileProbe | null>;
  listing: Signal<boolean>;
  models: Signal<ListedModel[] | null>;
  listError: Signal<string | null>;
  /** A request the route refused, as a sentence. */
  failure: Signal<string | null>;
  /** The same refusal by field (`baseURL`), for the editor's fields. */
  errors: Signal<FieldErrors>;
  test(record: RecordDraft): Promise<void>;
  list(record: RecordDraft): Promise<void>;
}

/** The state and actions of a profile's Test and List models. */
export function useProfileChecks(): ProfileChecks {
  const testing = useSignal(false);
  const probe = useSignal<ProfileProbe | null>(null);
  const listing = useSignal(false);
  const models = useSignal<ListedModel[] | null>(null);
  const listError = useSignal<string | null>(null);
  const failure = useSignal<string | null>(null);
  const errors = useSignal<FieldErrors>({});
  const refused = (error: unknown) => {
    failure.value = describeError(error);
    errors.value = error instanceof ApiError ? errorsAt(error.details, "profile") : {};
  };
  return {
    testing,
    probe,
    listing,
    models,
    listError,
    failure,
    errors,
    async test(record) {
      testing.value = true;
      try {
        probe.value = await testProfile(testableProfile(record));
        failure.value = null;
        errors.value = {};
      } catch (error) {
        probe.value = null;
        refused(error);
      } finally {
        testing.value = false;
      }
    },
    async list(record) {
      listing.value = true;
      try {
        const answer = await listModels(testableProfile(record));
        models.value = answer.models;
        listError.value = answer.error ?? null;
        failure.value = null;
        errors.value = {};
      } catch (error) {
        models.value = null;
        listError.value = null;
        refused(error);
      } finally {
        listing.value = false;
      }
    },
  };
}

/** One sentence about a test: how long it took and what the model said, or why it failed. */
export function probeSentence(probe: ProfileProbe): string {
  const took = formatDuration(probe.latencyMs);
  if (!probe.ok) return `Failed after ${took}: ${probe.error ?? "no reason given"}`;
  return `The model answered in ${took}.`;
}

/** The editor's buttons and results; picking a listed model sets the draft's `model`. */
export function ProfileChecksPanel(props: { checks: ProfileChecks; draft: Signal<RecordDraft> }) {
  const { checks, draft } = props;
  const probe = checks.probe.value;
  return (
    <div class="profile-checks">
      <div class="check-actions">
        <button
          type="button"
          disabled={checks.testing.value}
          onClick={() => checks.test(draft.peek())}
        >
          {checks.testing.value ? "Testing…" : "Test"}
        </button>
        <button
          type="button"
          disabled={checks.listing.value}
          onClick={() => checks.list(draft.peek())}
        >
          {checks.listing.value ? "Listing…" : "List models"}
        </button>
        <span class="hint">Uses the settings above, saved or not.</span>
      </div>
      {checks.failure.value ? <p class="error" role="alert">{checks.failure.value}</p> : null}
      {probe
        ? (
          <section
            class={probe.ok ? "test-result ok" : "test-result failed"}
            aria-label="Test result"
          >
            <p class="test-sentence" role={probe.ok ? "status" : "alert"}>
              {probeSentence(probe)}
            </p>
            {probe.text ? <pre class="code test-reply">{probe.text}</pre> : null}
          </section>
        )
        : null}
      {checks.models.value
        ? (
          <ModelPicker
            models={checks.models.value}
            error={checks.listError.value}
            current={String(draft.value.model ?? "")}
            onPick={(id) => setField(draft, "model", id)}
          />
        )
        : null}
    </div>
  );
}

interface ModelPickerProps {
  models: ListedModel[];
  error: string | null;
  current: string;
  onPick: (id: string) => void;
}

/** The listed models as buttons that put one into the model field; a filter for long lists. */
function ModelPicker({ models, error, current, onPick }: ModelPickerProps) {
  const filter = useSignal("");
  const needle = filter.value.trim().toLowerCase();
  const shown = needle === ""
    ? models
    : models.filter((model) => `${model.id} ${model.name ?? ""}`.toLowerCase().includes(needle));
  return (
    <section class="model-list" aria-label="Models">
      {error ? <p class="error" role="alert">{error}</p> : null}
      {!error && models.length === 0 ? <p class="hint">The vendor lists no models.</p> : null}
      {models.length > 12
        ? (
          <label class="model-filter">
            Filter{" "}
            <input
              type="search"
              value={filter.value}
              onInput={(event) => filter.value = event.currentTarget.value}
            />
          </label>
        )
        : null}
      {models.length > 0
        ? (
          <ul>
            {shown.map((model) => (
              <li key={model.id}>
                <button
                  type="button"
                  class={model.id === current ? "model-choice current" : "model-choice"}
                  aria-pressed={model.id === current}
                  aria-label={`Use model ${model.id}`}
                  onClick={() => onPick(model.id)}
                >
                  {model.id}
                </button>
                <span class="hint">{modelFacts(model)}</span>
              </li>
            ))}
          </ul>
        )
        : null}
      {models.length > 0
        ? <p class="hint">{models.length} models. Pick one to put it in the Model field.</p>
        : null}
    </section>
  );
}

function modelFacts(model: ListedModel): string {
  const facts: string[] = [];
  if (model.name && model.name !== model.id) facts.push(model.name);
  if (model.ownedBy) facts.push(model.ownedBy);
  if (model.created) facts.push(model.created.slice(0, 10));
  if (model.size) facts.push(`${(model.size / 1e9).toFixed(1)} GB`);
  return facts.join(" · ");
}

/** Test of a saved profile from the list: a button and one sentence. */
export function TestProfileAction({ record }: { record: RecordDraft }) {
  const checks = useProfileChecks();
  const probe = checks.probe.value;
  const sentence = checks.failure.value ?? (probe ? probeSentence(probe) : null);
  const ok = probe?.ok === true && !checks.failure.value;
  return (
    <>
      {sentence
        ? (
          <span class={ok ? "test-inline ok" : "test-inline error"} role={ok ? "status" : "alert"}>
            {sentence}
          </span>
        )
        : null}
      <button
        type="button"
        aria-label={`Test ${String(record.name ?? record.id)}`}
        disabled={checks.testing.value}
        onClick={() => checks.test(record)}
      >
        {checks.testing.value ? "Testing…" : "Test"}
      </button>
    </>
  );
}
