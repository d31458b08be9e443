/**
 * A text field that asks the server for suggestions (`completion/complete`) as you type, for a
 * prompt argument or a resource-template variable: a list under the field (a WAI-ARIA combobox),
 * asked for once typing pauses (or on Arrow Down), answers to older text dropped. Arrow keys
 * move through the list, Enter or a click takes a suggestion, Escape closes it; a list closed so
 * (or by leaving the field) stays closed when a late answer comes, until the next keystroke.
 */
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { describeError } from "../state.ts";
import { type CompletionRef } from "../../wire/tool_servers.ts";
import { workbenchApi } from "./workbench_api.ts";

/** How long typing pauses before the server is asked. */
const TYPING_MS = 200;

/** The props of {@link CompletionInput}. */
export interface CompletionInputProps {
  serverId: string;
  /** The prompt or resource template whose argument this is. */
  reference: CompletionRef;
  /** The argument's (variable's) name. */
  name: string;
  id: string;
  value: string;
  onValue: (value: string) => void;
  /** The other arguments filled so far, sent as `context.arguments`. */
  context: Record<string, string>;
  required?: boolean;
  describedBy?: string;
  /** A textarea that grows, for prompt arguments. */
  multiline?: boolean;
}

/** A field with the server's suggestions. */
export function CompletionInput(props: CompletionInputProps) {
  const { serverId, reference, name, id, value } = props;
  const suggestions = useSignal<string[]>([]);
  const more = useSignal(false);
  const open = useSignal(false);
  const active = useSignal(-1);
  const problem = useSignal<string | null>(null);
  const asked = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const ask = (text: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(async () => {
      const mine = ++asked.current;
      try {
        const context = Object.fromEntries(
          Object.entries(props.context).filter(([key, v]) => key !== name && v !== ""),
        );
        const answer = await workbenchApi.complete(serverId, {
          ref: reference,
          argument: { name, value: text },
          ...(Object.keys(context).length > 0 && { context: { arguments: context } }),
        });
        if (mine !== asked.current) return;
        suggestions.value = answer.values;
        more.value = answer.hasMore === true;
        problem.value = null;
        open.value = answer.values.length > 0;
        active.value = -1;
      } catch (error) {
        if (mine !== asked.current) return;
        suggestions.value = [];
        open.value = false;
        problem.value = `No suggestions: ${describeError(error)}`;
      }
    }, TYPING_MS);
  };
  /** Closes the list, and drops a question waiting to be asked or answered. */
  const close = () => {
    clearTimeout(timer.current);
    asked.current++;
    open.value = false;
  };
  const take = (suggestion: string) => {
    props.onValue(suggestion);
    close();
    active.value = -1;
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const list = suggestions.peek();
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!open.peek()) {
        if (list.length === 0) return ask(value);
        open.value = true;
      }
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      active.value = (active.peek() + step + list.length) % list.length;
    } else if (event.key === "Enter" && open.peek() && active.peek() >= 0) {
      event.preventDefault();
      take(list[active.peek()]);
    } else if (event.key === "Escape") {
      if (open.peek()) event.preventDefault();
      close();
    }
  };
  const listId = `${id}-suggestions`;
  const optionId = (i: number) => `${listId}-${i}`;
  const shared = {
    id,
    "aria-autocomplete": "list" as const,
    "aria-controls": listId,
    "aria-activedescendant": open.value && active.value >= 0 ? optionId(active.value) : undefined,
    "aria-describedby": props.describedBy,
    autoComplete: "off",
    required: props.required,
    value,
    onInput: (event: Event) => {
      const text = (event.currentTarget as HTMLInputElement).value;
      props.onValue(text);
      ask(text);
    },
    onBlur: close,
    onKeyDown,
  };
  return (
    <div class="completion">
      {props.multiline
        // A textarea stays a textbox (with its suggestions); a one-line field is a combobox.
        ? <textarea class="grow" rows={1} {...shared} />
        : <input role="combobox" aria-expanded={open.value} {...shared} />}
      <ul
        id={listId}
        role="listbox"
        class="suggestions"
        hidden={!open.value}
        aria-label="Suggestions"
      >
        {suggestions.value.map((suggestion, i) => (
          <li
            key={suggestion}
            id={optionId(i)}
            role="option"
            aria-selected={i === active.value}
            // Before the field's blur, so the click lands.
            onMouseDown={(event) => {
              event.preventDefault();
              take(suggestion);
            }}
          >
            {suggestion}
          </li>
        ))}
        {more.value ? <li class="hint" role="presentation">More match: type on.</li> : null}
      </ul>
      {problem.value ? <small class="hint">{problem.value}</small> : null}
    </div>
  );
}
