/**
 * One clock for the UI's relative times ("2 minutes ago", "retrying in 4 s"): a signal of the
 * current time that ticks every second once something reads it, so those texts stay true.
 */
import { signal } from "@preact/signals";

const current = signal(Date.now());
let timer: ReturnType<typeof setInterval> | undefined;

/** The current time in ms; a component that calls it renders again as the clock ticks. */
export function now(): number {
  timer ??= setInterval(() => current.value = Date.now(), 1000);
  return current.value;
}
