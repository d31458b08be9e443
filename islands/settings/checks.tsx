/**
 * Checking a draft before it is saved (Test, Preview, List models): the state of one check, its
 * button row, a refused request shown at the fields, and a test's result as one sentence.
 */
import { type Signal, useSignal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";
import { ApiError } from "../api.ts";
import { formatDuration } from "../format.ts";
import { describeError } from "../state.ts";
import { errorsUnder, type FieldErrors, type RecordDraft } from "./form.tsx";
import { CodeText } from "../code_text.tsx";

/** A request the route refused (a draft of the wrong shape): a sentence, and the same by field. */
export interface Refusal {
  failure: Signal<string | null>;
  errors: Signal<FieldErrors>;
}

/** A {@link Refusal} that several checks of one draft can share: the last one's stands. */
export function useRefusal(): Refusal {
  return { failure: useSignal<string | null>(null), errors: useSignal<FieldErrors>({}) };
}

/** The state of one check of a draft: running or not, its answer, and a refusal. */
export interface Check<T> extends Refusal {
  busy: Signal<boolean>;
  /** The last answer; `null` before the first and after a refusal. */
  result: Signal<T | null>;
  run(record: RecordDraft): Promise<void>;
}

/** Options of {@link useCheck}. */
export interface CheckOptions {
  /** Where the route's 400 details put the record (`profile` for `{profile: {...}}`). */
  prefix: string;
  /** Shared with other checks of the same draft; else the check's own. */
  refusal?: Refusal;
  /** Checked once as the check is first drawn (a saved record's editor opening). */
  start?: RecordDraft;
}

/** A check that sends a draft to `call` (a typed route wrapper) when run. */
export function useCheck<T>(
  call: (record: RecordDraft) => Promise<T>,
  options: CheckOptions,
): Check<T> {
  const busy = useSignal(false);
  const result = useSignal<T | null>(null);
  const own = useRefusal();
  const { failure, errors } = options.refusal ?? own;
  const run = async (record: RecordDraft) => {
    busy.value = true;
    try {
      result.value = await call(record);
      failure.value = null;
      errors.value = {};
    } catch (error) {
      result.value = null;
      failure.value = describeError(error);
      errors.value = error instanceof ApiError ? errorsUnder(error.details, options.prefix) : {};
    } finally {
      busy.value = false;
    }
  };
  useEffect(() => {
    if (options.start) void run(options.start);
  }, []);
  return { busy, result, failure, errors, run };
}

interface CheckButtonProps {
  check: Pick<Check<unknown>, "busy" | "run">;
  draft: Signal<RecordDraft>;
  label: string;
  /** The label while it runs, e.g. "Testing…". */
  busyLabel: string;
}

/** A button that runs a check of the draft as it is now. */
export function CheckButton({ check, draft, label, busyLabel }: CheckButtonProps) {
  return (
    <button type="button" disabled={check.busy.value} onClick={() => check.run(draft.peek())}>
      {check.busy.value ? busyLabel : label}
    </button>
  );
}

/** The editor's row of check buttons with a hint, and a refused request below it. */
export function CheckActions(
  props: { hint: string; refusal: Refusal; children: ComponentChildren },
) {
  const failure = props.refusal.failure.value;
  return (
    <>
      <div class="check-actions">
        {props.children}
        <span class="hint">{props.hint}</span>
      </div>
      {failure
        ? (
          <p class="error" role="alert">
            <CodeText text={failure} />
          </p>
        )
        : null}
    </>
  );
}

/** What a test route answers at least: whether it worked, how long it took, and why not. */
export interface Probe {
  ok: boolean;
  latencyMs: number;
  error?: string;
}

/** One sentence about a failed test: how long it took and why. */
export function failedSentence(probe: Probe): string {
  return `Failed after ${formatDuration(probe.latencyMs)}: ${probe.error ?? "no reason given"}`;
}

/** A test's result: one sentence (a status when it worked, an alert when not), then `children`. */
export function TestResult(
  props: { ok: boolean; sentence: ComponentChildren; children?: ComponentChildren },
) {
  return (
    <section class={props.ok ? "test-result ok" : "test-result failed"} aria-label="Test result">
      <p class="test-sentence" role={props.ok ? "status" : "alert"}>{props.sentence}</p>
      {props.children}
    </section>
  );
}

interface ListTestProps<T extends Probe> {
  record: RecordDraft;
  /** Tests the saved record. */
  test: (record: RecordDraft) => Promise<T>;
  sentence: (result: T) => string;
}

/** A saved record's Test button in the list, with one sentence about the outcome beside it. */
export function ListTest<T extends Probe>({ record, test, sentence }: ListTestProps<T>) {
  const check = useCheck(test, { prefix: "" });
  const result = check.result.value;
  const shown = check.failure.value ?? (result ? sentence(result) : null);
  const ok = result?.ok === true && !check.failure.value;
  return (
    <>
      {shown
        ? (
          <span class={ok ? "test-inline ok" : "test-inline error"} role={ok ? "status" : "alert"}>
            {shown}
          </span>
        )
        : null}
      <button
        type="button"
        aria-label={`Test ${String(record.name ?? record.id)}`}
        disabled={check.busy.value}
        onClick={() => check.run(record)}
      >
        {check.busy.value ? "Testing…" : "Test"}
      </button>
    </>
  );
}
