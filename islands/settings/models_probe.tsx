/** A model profile's Test and List models, with their results, for the editor and the list. */
import { batch, type Signal, useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { ModelInfo, ModelList, ProfileProbe } from "../../wire/models.ts";
import { plural } from "../../wire/words.ts";
import { formatDuration } from "../format.ts";
import {
  type Check,
  CheckActions,
  CheckButton,
  failedSentence,
  type Refusal,
  TestResult,
  useCheck,
  useRefusal,
} from "./checks.tsx";
import { type RecordDraft, setField } from "./form.tsx";
import { listModels, testProfile } from "./models_api.ts";

/** A profile's Test and List models; a refusal of either is shown at the editor's fields. */
export interface ProfileChecks {
  test: Check<ProfileProbe>;
  list: Check<ModelList>;
  refusal: Refusal;
}

/** The state and actions of a profile's Test and List models. */
export function useProfileChecks(): ProfileChecks {
  const refusal = useRefusal();
  return {
    test: useCheck(testProfile, { prefix: "profile", refusal }),
    list: useCheck(listModels, { prefix: "profile", refusal }),
    refusal,
  };
}

/** One sentence about a test: how long it took and what the model said, or why it failed. */
export function probeSentence(probe: ProfileProbe): string {
  if (!probe.ok) return failedSentence(probe);
  return `The model answered in ${formatDuration(probe.latencyMs)}.`;
}

/**
 * Forgets the answers of Test and List models (and a refusal) when the endpoint changes: they
 * were about the old one.
 */
function useForgetOnEndpointChange(checks: ProfileChecks, draft: Signal<RecordDraft>): void {
  const { baseURL, provider, resourceName } = draft.value;
  const endpoint = JSON.stringify([baseURL, provider, resourceName]);
  const seen = useRef(endpoint);
  useEffect(() => {
    if (seen.current === endpoint) return;
    seen.current = endpoint;
    batch(() => {
      checks.test.result.value = null;
      checks.list.result.value = null;
      checks.refusal.failure.value = null;
      checks.refusal.errors.value = {};
    });
  }, [endpoint]);
}

/** The editor's buttons and results; picking a listed model sets the draft's `model`. */
export function ProfileChecksPanel(props: { checks: ProfileChecks; draft: Signal<RecordDraft> }) {
  const { checks: { test, list, refusal }, draft } = props;
  useForgetOnEndpointChange(props.checks, draft);
  const probe = test.result.value;
  const listed = list.result.value;
  return (
    <div class="profile-checks">
      <CheckActions hint="Uses the settings above, saved or not." refusal={refusal}>
        <CheckButton check={test} draft={draft} label="Test" busyLabel="Testing…" />
        <CheckButton check={list} draft={draft} label="List models" busyLabel="Listing…" />
      </CheckActions>
      {probe
        ? (
          <TestResult ok={probe.ok} sentence={probeSentence(probe)}>
            {probe.text ? <pre class="code test-reply">{probe.text}</pre> : null}
          </TestResult>
        )
        : null}
      {listed
        ? (
          <ModelPicker
            models={listed.models}
            error={listed.error ?? null}
            current={String(draft.value.model ?? "")}
            onPick={(id) => setField(draft, "model", id)}
          />
        )
        : null}
    </div>
  );
}

interface ModelPickerProps {
  models: ModelInfo[];
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
        ? (
          <p class="hint">
            {plural(models.length, "model")}. Pick one to put it in the Model field.
          </p>
        )
        : null}
    </section>
  );
}

function modelFacts(model: ModelInfo): string {
  const facts: string[] = [];
  if (model.name && model.name !== model.id) facts.push(model.name);
  if (model.ownedBy) facts.push(model.ownedBy);
  if (model.created) facts.push(model.created.slice(0, 10));
  if (model.size) facts.push(`${(model.size / 1e9).toFixed(1)} GB`);
  return facts.join(" · ");
}
