/**
 * Markdown text (a model's answer; a tool's, prompt's or resource's description in the inspector),
 * GitHub flavour, a single newline a line break. `marked` reads it; its tokens become Preact
 * elements, never HTML, so nothing in the text can run: raw HTML is shown
 * as text, links go only to http(s) and mailto addresses and open in a new tab, and images are
 * links (nothing is loaded). While an answer streams, blocks whose source did not change keep
 * their elements; only the growing block is drawn again.
 */
import { Lexer, type Token, type Tokens } from "marked";
import { Component, type ComponentChildren } from "preact";
import { useMemo } from "preact/hooks";

/** The link targets that become links; anything else is shown as its text. */
const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** The address of a link, or `undefined` when it is not one to follow. */
function safeHref(href: string): string | undefined {
  try {
    const url = new URL(href);
    return LINK_PROTOCOLS.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

let decoder: HTMLTextAreaElement | undefined;

/**
 * Text with its character references (`&amp;`, `&#39;`) resolved, as markdown text means them. A
 * textarea's content is read as text, so no element is ever made from it.
 */
function decode(text: string): string {
  if (!text.includes("&")) return text;
  decoder ??= document.createElement("textarea");
  decoder.innerHTML = text;
  return decoder.value;
}

function External({ href, title, children }: {
  href: string;
  title?: string | null;
  children: ComponentChildren;
}) {
  return (
    <a href={href} title={title ?? undefined} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

function inline(tokens: Token[] | undefined): ComponentChildren[] {
  return (tokens ?? []).map((token, i) => inlineToken(token as Tokens.Generic, i));
}

function inlineToken(token: Tokens.Generic, key: number): ComponentChildren {
  switch (token.type) {
    case "text":
      return token.tokens ? <span key={key}>{inline(token.tokens)}</span> : decode(token.text);
    case "escape":
      return token.text;
    case "strong":
      return <strong key={key}>{inline(token.tokens)}</strong>;
    case "em":
      return <em key={key}>{inline(token.tokens)}</em>;
    case "del":
      return <del key={key}>{inline(token.tokens)}</del>;
    case "codespan":
      return <code key={key}>{token.text}</code>;
    case "br":
      return <br key={key} />;
    case "link": {
      const href = safeHref(token.href);
      const text = inline(token.tokens);
      return href
        ? <External key={key} href={href} title={token.title}>{text}</External>
        : <span key={key}>{text}</span>;
    }
    case "image": {
      const href = safeHref(token.href);
      const text = `Image: ${token.text || token.href}`;
      return href ? <External key={key} href={href} title={token.title}>{text}</External> : text;
    }
    case "checkbox":
      return <input key={key} type="checkbox" checked={token.checked} disabled />;
    default:
      // Raw HTML (`html`) and anything unknown: its source, as text.
      return token.raw;
  }
}

function Table({ token }: { token: Tokens.Table }) {
  const cell = (cell: Tokens.TableCell, i: number) => {
    const Tag = cell.header ? "th" : "td";
    return (
      <Tag key={i} class={cell.align ? `align-${cell.align}` : undefined}>
        {inline(cell.tokens)}
      </Tag>
    );
  };
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>{token.header.map(cell)}</tr>
        </thead>
        <tbody>
          {token.rows.map((row, i) => <tr key={i}>{row.map(cell)}</tr>)}
        </tbody>
      </table>
    </div>
  );
}

function List({ token }: { token: Tokens.List }) {
  const items = token.items.map((item, i) => (
    <li key={i} class={item.task ? "task" : undefined}>{blocks(item.tokens)}</li>
  ));
  if (!token.ordered) return <ul>{items}</ul>;
  return <ol start={token.start === "" || token.start === 1 ? undefined : token.start}>{items}</ol>;
}

function blocks(tokens: Token[]): ComponentChildren[] {
  return tokens.map((token, i) => block(token as Tokens.Generic, i));
}

function block(token: Tokens.Generic, key: number): ComponentChildren {
  switch (token.type) {
    case "space":
    case "def":
      return null;
    case "paragraph":
      return <p key={key}>{inline(token.tokens)}</p>;
    case "heading": {
      // The answer sits under a level-2 heading: its own headings start at level 3.
      const Tag = `h${Math.min(6, token.depth + 2)}` as "h3";
      return <Tag key={key}>{inline(token.tokens)}</Tag>;
    }
    case "code":
      return (
        <pre key={key} class="code" data-lang={token.lang || undefined}>
          <code>{token.text}</code>
        </pre>
      );
    case "blockquote":
      return <blockquote key={key}>{blocks(token.tokens ?? [])}</blockquote>;
    case "list":
      return <List key={key} token={token as Tokens.List} />;
    case "table":
      return <Table key={key} token={token as Tokens.Table} />;
    case "hr":
      return <hr key={key} />;
    case "html":
      return <p key={key} class="raw-html">{token.text}</p>;
    default:
      // Text in a tight list item, a task's checkbox: inline content.
      return inlineToken(token, key);
  }
}

interface BlockProps {
  token: Token;
  /** The text's link definitions (`[id]: url`), which a block's links may refer to. */
  defs: string;
}

/**
 * One top-level block, drawn again only when its source (or a link definition) changed: the
 * blocks before a streaming one keep their elements untouched.
 */
class Block extends Component<BlockProps> {
  override shouldComponentUpdate(next: BlockProps): boolean {
    const { token, defs } = this.props;
    return next.token.raw !== token.raw || next.token.type !== token.type || next.defs !== defs;
  }

  override render() {
    return block(this.props.token as Tokens.Generic, 0);
  }
}

/** Renders markdown text: a model's answer, a tool's description. */
export function RichText({ text }: { text: string }) {
  const tokens = useMemo(() => Lexer.lex(text, { gfm: true, breaks: true }), [text]);
  const defs = Object.keys(tokens.links).length > 0 ? JSON.stringify(tokens.links) : "";
  return (
    <div class="rich">
      {tokens.map((token, i) =>
        token.type === "space" ? null : <Block key={i} token={token} defs={defs} />
      )}
    </div>
  );
}
