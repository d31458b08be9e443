/**
 * The markdown renderer of A2UI's Text component. `@a2ui/lit` asks for one through a Lit context
 * (`Context.markdown`, a `context-request` event from each Text element) and warns once when
 * nobody answers; Lass answers with {@link RichText}'s drawing, so an A2UI text reads as a chat
 * answer does: raw HTML shown as text, links only to http(s) and mailto.
 */
import { render } from "preact";
import { Context } from "@a2ui/lit/v0_9";
import type { MarkdownRenderer } from "@a2ui/web_core/v0_9";
import { RichText } from "../rich_text.tsx";

/**
 * Markdown as HTML for the Text component's `unsafeHTML`: Preact draws the tokens as elements
 * (never parsing HTML from the text), and their markup is read back, so it holds nothing else.
 */
export const renderMarkdown: MarkdownRenderer = (markdown, options) => {
  const box = document.createElement("div");
  render(<RichText text={markdown} />, box);
  const rich = box.firstElementChild ?? box;
  for (const [tag, classes] of Object.entries(options?.tagClassMap ?? {})) {
    for (const element of rich.querySelectorAll(tag)) element.classList.add(...classes);
  }
  const html = rich.innerHTML;
  render(null, box);
  return Promise.resolve(html);
};

/** A Lit context request (the community context protocol that `@lit/context` speaks). */
interface ContextRequest extends Event {
  context?: unknown;
  callback?: (value: unknown) => void;
}

/**
 * Answers the markdown context requests of the A2UI elements under `host` (which must listen
 * before they connect); returns what stops it.
 */
export function provideMarkdown(host: HTMLElement): () => void {
  const answer = (event: Event) => {
    const request = event as ContextRequest;
    if (request.context !== Context.markdown) return;
    event.stopPropagation();
    request.callback?.(renderMarkdown);
  };
  host.addEventListener("context-request", answer);
  return () => host.removeEventListener("context-request", answer);
}
