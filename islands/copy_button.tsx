/** Copy buttons: one for any text, and a JSON view with its own. */
import { useSignal } from "@preact/signals";
import type { RefObject } from "preact";
import { useRef } from "preact/hooks";
import { copyText } from "./export/copy.ts";
import { showValue } from "./format.ts";

/** The props of {@link CopyButton}. */
export interface CopyButtonProps {
  text: string;
  /** The element that shows the text: selected for Ctrl+C where the clipboard is refused. */
  shown?: RefObject<HTMLElement | null>;
  label?: string;
  /** What is copied, for its accessible name ("Copy JSON"). */
  what?: string;
}

/** A button that copies `text` and says "Copied" for a moment (or that it was refused). */
export function CopyButton({ text, shown, label = "Copy", what }: CopyButtonProps) {
  const said = useSignal<string | null>(null);
  const copy = async () => {
    const ok = await copyText(text, shown?.current);
    said.value = ok ? "Copied" : "Selected: press Ctrl+C";
    setTimeout(() => said.value = null, 1500);
  };
  return (
    <button
      type="button"
      class="copy-button"
      aria-label={what ? `${label} ${what}` : label}
      onClick={() => void copy()}
    >
      <span aria-live="polite">{said.value ?? label}</span>
    </button>
  );
}

/** A value shown as pretty JSON with a Copy button. */
export function JsonBlock(
  { value, class: className, what = "JSON" }: { value: unknown; class?: string; what?: string },
) {
  const pre = useRef<HTMLPreElement>(null);
  const text = showValue(value);
  return (
    <div class="json-block">
      <pre ref={pre} class={`json${className ? ` ${className}` : ""}`}>{text}</pre>
      <CopyButton text={text} shown={pre} what={what} />
    </div>
  );
}
