/**
 * A2UI v0.9 messages run through `@a2ui/web_core`'s message processor, one at a time, so that a
 * bad message becomes a sentence naming it instead of a blank surface.
 */
import { MessageProcessor, type SurfaceModel } from "@a2ui/web_core/v0_9";
import type { DrawableApi, DrawableCatalog } from "./a2ui_catalogs.ts";

/** The kinds of server-to-client messages of A2UI v0.9. */
const KINDS = ["createSurface", "updateComponents", "updateDataModel", "deleteSurface"] as const;

type Message = Record<string, unknown>;

/** The surfaces the messages left, and what went wrong on the way. */
export interface ProcessedMessages {
  /** The surfaces in the order they were created (deleted ones left out). */
  surfaces: SurfaceModel<DrawableApi>[];
  /** One sentence per problem, naming the message (1-based) or the surface. */
  errors: string[];
  /** Frees the surfaces' models. */
  dispose(): void;
}

/** The one message key of an A2UI v0.9 message, or undefined when it is not one. */
function kindOf(message: unknown): (typeof KINDS)[number] | undefined {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return undefined;
  const kinds = KINDS.filter((kind) => kind in message);
  return kinds.length === 1 ? kinds[0] : undefined;
}

/** A `createSurface` with the workspace's theme over the one it carries. */
function withTheme(message: Message, theme: Record<string, unknown> | undefined): Message {
  const create = message.createSurface as Message | undefined;
  if (!theme || !create) return message;
  const own = (create.theme ?? {}) as Message;
  return { ...message, createSurface: { ...create, theme: { ...own, ...theme } } };
}

/** The sentence of an error thrown by the processor. */
function sentence(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, " ").trim() || "unknown error";
}

/** The surface id a message names, if any. */
function surfaceIdOf(message: unknown): unknown {
  const kind = kindOf(message);
  return kind ? ((message as Message)[kind] as Message | undefined)?.surfaceId : undefined;
}

/**
 * A hint for an update to a surface that no `createSurface` before it in the list makes: each
 * result draws its own surfaces, so one result cannot change another's.
 */
function elsewhere(list: unknown[], index: number): string {
  const id = surfaceIdOf(list[index]);
  if (typeof id !== "string" || "createSurface" in (list[index] as Message)) return "";
  const made = list.slice(0, index).some((message) =>
    kindOf(message) === "createSurface" && surfaceIdOf(message) === id
  );
  return made ? "" : ` (no message before it creates ${id}; a result cannot change the surfaces ` +
    "of another result)";
}

/** Options of {@link processMessages}. */
export interface ProcessOptions {
  /** The catalogs surfaces may name (see `catalogsFor`). */
  catalogs: DrawableCatalog[];
  /** The workspace's `generativeUi.theme`, laid over each surface's own theme. */
  theme?: Record<string, unknown>;
}

/** Runs the messages in order; each failing message is reported and skipped. */
export function processMessages(messages: unknown, options: ProcessOptions): ProcessedMessages {
  const processor = new MessageProcessor(options.catalogs);
  const surfaces = new Map<string, SurfaceModel<DrawableApi>>();
  const created = processor.onSurfaceCreated((surface) => surfaces.set(surface.id, surface));
  const deleted = processor.onSurfaceDeleted((id) => surfaces.delete(id));
  const errors: string[] = [];
  const list = Array.isArray(messages) ? messages : [];
  if (!Array.isArray(messages)) errors.push("The UI has no list of A2UI messages.");
  list.forEach((message, index) => {
    const kind = kindOf(message);
    if (!kind) {
      errors.push(
        `Message ${index + 1} is not an A2UI v0.9 message (one of ${KINDS.join(", ")}).`,
      );
      return;
    }
    try {
      // A copy: the data model keeps the objects it is given and typing changes them in place,
      // which must not change the result's messages (kept in the session, shown as JSON).
      const copy = structuredClone(withTheme(message as Message, options.theme));
      // deno-lint-ignore no-explicit-any
      processor.processMessages([copy as any]);
    } catch (error) {
      errors.push(`Message ${index + 1} (${kind}): ${sentence(error)}${elsewhere(list, index)}`);
    }
  });
  created.unsubscribe();
  deleted.unsubscribe();
  for (const surface of surfaces.values()) {
    if (!surface.componentsModel.get("root")) {
      errors.push(`The surface ${surface.id} has no component with the id "root".`);
    }
  }
  if (surfaces.size === 0 && errors.length === 0) errors.push("The messages create no surface.");
  return {
    surfaces: [...surfaces.values()],
    errors,
    dispose: () => {
      for (const surface of surfaces.values()) surface.dispose();
    },
  };
}
