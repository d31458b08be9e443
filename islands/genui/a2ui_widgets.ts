/**
 * The basic catalog's widgets as this page can show them. The page's content security policy
 * allows no inline `style` attributes, no media and images only from the page itself or `data:`
 * / `blob:` URLs, so:
 * - Text and Image draw as in `@a2ui/web_core`, with their `style` attribute bindings dropped and
 *   the same styles set through the CSSOM (which the policy allows);
 * - an Image from elsewhere, a Video and an AudioPlayer are links that open the address in a new
 *   tab.
 */
import {
  A2uiAudioPlayerElement,
  A2uiBasicTextElement,
  A2uiImageElement,
  A2uiVideoElement,
} from "@a2ui/web_core/v0_9/basic_catalog";

/** lit's `nothing` (a registered symbol), without importing lit here. */
const NOTHING = Symbol.for("lit-nothing");

/** Custom elements of the replaced widgets, by component name. */
export const WIDGET_TAGS: Record<string, string> = {
  Text: "lass-a2ui-text",
  Image: "lass-a2ui-image",
  Video: "lass-a2ui-video",
  AudioPlayer: "lass-a2ui-audio",
};

type Rendered = ReturnType<A2uiImageElement["render"]>;

/** A rendered template without its `style=${...}` bindings (lit then sets no style attribute). */
function withoutStyleBindings<T>(result: T): T {
  const template = result as { strings?: readonly string[]; values?: unknown[] } | null;
  if (!template?.strings || !Array.isArray(template.values)) return result;
  template.values.forEach((_, i) => {
    if (/\sstyle=["']?$/.test(template.strings![i])) template.values![i] = NOTHING;
  });
  return result;
}

/** Whether the page may load this image: a `data:` or `blob:` URL, or one of its own origin. */
function loadable(url: unknown): boolean {
  if (typeof url !== "string") return false;
  if (/^(data|blob):/i.test(url)) return true;
  try {
    return new URL(url, location.href).origin === location.origin;
  } catch {
    return false;
  }
}

/** A link that opens a media address in a new tab (a DOM node: lit renders nodes as they are). */
function mediaLink(kind: string, url: unknown, description: unknown): Rendered {
  const about = typeof description === "string" && description ? `: ${description}` : "";
  const address = typeof url === "string" && /^https?:\/\//i.test(url) ? url : undefined;
  const node = document.createElement(address ? "a" : "span");
  node.setAttribute("part", "media-link");
  if (address) {
    node.setAttribute("href", address);
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
    node.textContent = `${kind}${about} (opens in a new tab)`;
  } else {
    node.textContent = `${kind}${about} (no web address to open)`;
  }
  return node as unknown as Rendered;
}

/** Text, its weight set on its span through the CSSOM. */
class TextWidget extends A2uiBasicTextElement {
  override render() {
    return withoutStyleBindings(super.render());
  }

  override updated(changed: Map<PropertyKey, unknown>) {
    super.updated(changed);
    const weight = this.controller?.props?.weight;
    const span = this.querySelector<HTMLElement>(":scope > .a2ui-text");
    if (span) span.style.flex = typeof weight === "number" ? String(weight) : "";
  }
}

/** Image, its fit set through the CSSOM; an image from elsewhere is a link. */
class ImageWidget extends A2uiImageElement {
  override render() {
    const props = this.controller?.props;
    if (props && !loadable(props.url)) return mediaLink("Image", props.url, props.description);
    return withoutStyleBindings(super.render());
  }

  override updated(changed: Map<PropertyKey, unknown>) {
    super.updated(changed);
    const image = this.querySelector<HTMLElement>(":scope > img");
    if (image) image.style.objectFit = this.controller?.props?.fit || "cover";
  }
}

/** Video, as a link. */
class VideoWidget extends A2uiVideoElement {
  override render() {
    const props = this.controller?.props;
    return props ? mediaLink("Video", props.url, undefined) : super.render();
  }
}

/** AudioPlayer, as a link. */
class AudioWidget extends A2uiAudioPlayerElement {
  override render() {
    const props = this.controller?.props;
    return props ? mediaLink("Audio", props.url, props.description) : super.render();
  }
}

const CLASSES: Record<string, CustomElementConstructor> = {
  Text: TextWidget,
  Image: ImageWidget,
  Video: VideoWidget,
  AudioPlayer: AudioWidget,
};

for (const [name, widget] of Object.entries(CLASSES)) {
  // Light-DOM styles are cached per class; own (empty) caches make them scoped to our tags.
  Object.assign(widget, {
    _processedSheet: undefined,
    _processedCss: undefined,
    _adoptedRoots: undefined,
  });
  if (!customElements.get(WIDGET_TAGS[name])) customElements.define(WIDGET_TAGS[name], widget);
}
