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
import { type ProcessedMessages, processMessages } from "./a2ui_messages.ts";

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

/** The surfaces of some A2UI messages, or a card saying why they cannot be shown. */
export function SurfaceView({ messages, theme, onAction }: SurfaceViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const errors = useSignal<string[]>([]);
  const drawnCount = useSignal(0);
  const actionHandler = useRef(onAction);
  actionHandler.current = onAction;
  const themeKey = JSON.stringify(theme ?? null);

  useEffect(() => {
    let processed: ProcessedMessages | undefined;
    let stopped = false;
    const unwatch: (() => void)[] = [];
    const draw = (catalogs: DrawableCatalog[]) => {
      if (stopped || !host.current) return;
      processed = processMessages(messages, { catalogs, theme });
      const shown = processed.errors;
      const elements = processed.surfaces.map((surface) => {
        surface.onAction.subscribe((action) => actionHandler.current?.(action));
        surface.onError.subscribe((error: { message?: string }) => {
          errors.value = [
            ...errors.peek(),
            `The surface ${surface.id} reported: ${error?.message ?? String(error)}`,
          ];
        });
        const element = new A2uiSurface();
        element.surface = surface;
        element.dataset.surfaceId = surface.id;
        return element;
      });
      host.current.replaceChildren(...elements);
      unwatch.push(...elements.map(watchLabels));
      drawnCount.value = elements.length;
      errors.value = shown;
    };
    errors.value = [];
    try {
      const catalogs = catalogsFor(catalogIdsOf(messages));
      if (catalogs instanceof Promise) {
        catalogs.then(draw, (error) => {
          if (!stopped) errors.value = [`The catalogs could not be read: ${String(error)}`];
        });
      } else {
        draw(catalogs);
      }
    } catch (error) {
      errors.value = [`The UI could not be drawn: ${String(error)}`];
    }
    return () => {
      stopped = true;
      for (const stop of unwatch) stop();
      host.current?.replaceChildren();
      processed?.dispose();
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
