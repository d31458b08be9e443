/** Small formatting helpers of the web UI. */
import { now as clockNow } from "./clock.ts";

/** A value as readable text: strings as they are, anything else as indented JSON. */
export function showValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** `850 ms`, `1.2 s`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 7],
  ["week", 4.35],
  ["month", 12],
  ["year", Infinity],
];

/**
 * "5 minutes ago", "yesterday": by default against the UI's clock, so a component that shows it
 * renders again as time passes.
 */
export function timeAgo(iso: string, now: number = clockNow()): string {
  let amount = (Date.parse(iso) - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(amount) < size) {
      return unit === "second" && Math.abs(amount) < 45
        ? "just now"
        : relative.format(Math.round(amount), unit);
    }
    amount /= size;
  }
  return iso;
}
