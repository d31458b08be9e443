/**
 * A2UI surfaces drawn in a Preact tree: the messages go through `@a2ui/web_core`, and each
 * surface is an `@a2ui/lit` `<a2ui-surface>` element that Preact leaves alone. Inputs write into
 * the surface's data model as the user types; a button's action comes out through `onAction`.
 */
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { A2uiSurface } from "@a2ui/lit/v0_9";
import type { A2uiClientAction } from "@a2ui/web_core/v0_9";
import { catalogIdsOf, catalogsFor, type DrawableCatalog } from "./a2ui_catalogs.ts";
import { watchLabels } from "./a2ui_labels.ts";
import { provideMarkdown } from "./a2ui_markdown.tsx";
import { type ProcessedMessages, processMessages } from "./a2ui_messages.ts";
import { onPrimaryOf } from "./a2ui_theme.ts";

export type { A2uiClientAction };

/** The props of {@link SurfaceView}. */
export interface SurfaceViewProps {
  /** A2UI v0.9 messages (`createSurface`, `updateComponents`, ...). */
  messages: unknown[];
  /** The workspace's `generativeUi.theme`, laid over the surfaces' own. */
  theme?: Record<string, unknown>;
  /** Called with each action a surface sends (a button with an `event` action). */
  onAction?: (action: A2uiClientAction) => void;
}

/** Processed messages kept with what they were processed with. */
interface Kept {
  themeKey: string;
  catalogs: DrawableCatalog[];
  processed: ProcessedMessages;
}

/**
 * Processed messages by the message list they came from. A card drawn again (the page left and
 * opened again, the chat re-rendered) reuses the same surface models, so what was typed stays;
 * a new list (a reopened chat, a new preview) starts from its initial data. The widgets release
 * their subscriptions when they leave the page, and the models go with their message list.
 */
const kept = new WeakMap<object, Kept>();

/** The processed messages for this list, theme and catalogs: kept ones, else new ones. */
function processedFor(
  messages: unknown[],
  theme: Record<string, unknown> | undefined,
  themeKey: string,
  catalogs: DrawableCatalog[],
): ProcessedMessages {
  if (typeof messages !== "object" || messages === null) {
    return processMessages(messages, { catalogs, theme });
  }
  const entry = kept.get(messages);
  if (
    entry && entry.themeKey === themeKey && entry.catalogs.length === catalogs.length &&
    entry.catalogs.every((catalog, i) => catalog === catalogs[i])
  ) {
    return entry.processed;
  }
  entry?.processed.dispose();
  const processed = processMessages(messages, { catalogs, theme });
  kept.set(messages, { themeKey, catalogs, processed });
  return processed;
}

/** The surfaces of some A2UI messages, or a card saying why they cannot be shown. */
export function SurfaceView({ messages, theme, onAction }: SurfaceViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const errors = useSignal<string[]>([]);
  const drawnCount = useSignal(0);
  const actionHandler = useRef(onAction);
  actionHandler.current = onAction;
  const themeKey = JSON.stringify(theme ?? null);

  useEffect(() => {
    let stopped = false;
    const stops: (() => void)[] = [];
    // Text components ask for their markdown renderer as they connect.
    if (host.current) stops.push(provideMarkdown(host.current));
    const draw = (catalogs: DrawableCatalog[]) => {
      if (stopped || !host.current) return;
      const processed = processedFor(messages, theme, themeKey, catalogs);
      const elements = processed.surfaces.map((surface) => {
        const action = surface.onAction.subscribe((action) => actionHandler.current?.(action));
        const error = surface.onError.subscribe((error: { message?: string }) => {
          errors.value = [
            ...errors.peek(),
            `The surface ${surface.id} reported: ${error?.message ?? String(error)}`,
          ];
        });
        stops.push(() => action.unsubscribe(), () => error.unsubscribe());
        const element = new A2uiSurface();
        element.surface = surface;
        element.dataset.surfaceId = surface.id;
        // Text on the primary colour readable whatever the theme's colour and the page's mode.
        const onPrimary = onPrimaryOf(surface.theme?.primaryColor);
        if (onPrimary) element.style.setProperty("--a2ui-color-on-primary", onPrimary);
        return element;
      });
      host.current.replaceChildren(...elements);
      stops.push(...elements.map(watchLabels));
      drawnCount.value = elements.length;
      errors.value = processed.errors;
    };
    errors.value = [];
    try {
      const catalogs = catalogsFor(catalogIdsOf(messages));
      if (catalogs instanceof Promise) {
        catalogs.then(
          (list) => {
            try {
              draw(list);
            } catch (error) {
              if (!stopped) errors.value = [`The UI could not be drawn: ${String(error)}`];
            }
          },
          (error) => {
            if (!stopped) errors.value = [`The catalogs could not be read: ${String(error)}`];
          },
        );
      } else {
        draw(catalogs);
      }
    } catch (error) {
      errors.value = [`The UI could not be drawn: ${String(error)}`];
    }
    return () => {
      stopped = true;
      for (const stop of stops) stop();
      host.current?.replaceChildren();
    };
    // The theme is compared by value (a new object on every render of the parent).
  }, [messages, themeKey]);

  const problems = errors.value;
  return (
    <div class="a2ui-view">
      {problems.length > 0
        ? (
          <div class="a2ui-error" role="alert">
            <strong>
              {drawnCount.value > 0
                ? "Part of this UI could not be shown:"
                : "This UI could not be shown:"}
            </strong>
            <ul>{problems.map((problem, i) => <li key={i}>{problem}</li>)}</ul>
          </div>
        )
        : null}
      <div class="a2ui-surfaces" ref={host} />
    </div>
  );
}
