/**
 * Model text with a little structure: fenced code blocks, inline `code`, **bold**, and
 * paragraphs. Built as elements, never as HTML, so nothing in a model's answer can run.
 */
import type { ComponentChildren } from "preact";

function inline(text: string): ComponentChildren[] {
  const nodes: ComponentChildren[] = [];
  const pattern = /`([^`\n]+)`|\*\*([^*\n]+)\*\*/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) nodes.push(text.slice(last, match.index));
    const key = nodes.length;
    nodes.push(
      match[1] !== undefined
        ? <code key={key}>{match[1]}</code>
        : <strong key={key}>{match[2]}</strong>,
    );
    last = match.index + match[0].length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

/** Renders model text. */
export function RichText({ text }: { text: string }) {
  const blocks: ComponentChildren[] = [];
  const fence = /```([\w+-]*)\n?([\s\S]*?)(?:```|$)/g;
  let last = 0;
  const paragraphs = (chunk: string) => {
    for (const paragraph of chunk.split(/\n{2,}/)) {
      if (paragraph.trim() === "") continue;
      blocks.push(<p key={blocks.length}>{inline(paragraph.replace(/^\n+|\n+$/g, ""))}</p>);
    }
  };
  for (const match of text.matchAll(fence)) {
    paragraphs(text.slice(last, match.index));
    blocks.push(
      <pre key={blocks.length} class="code" data-lang={match[1] || undefined}>
        <code>{match[2].replace(/\n$/, "")}</code>
      </pre>,
    );
    last = match.index + match[0].length;
  }
  paragraphs(text.slice(last));
  return <div class="rich">{blocks}</div>;
}
