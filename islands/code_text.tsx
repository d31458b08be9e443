/** Sentences from the server with code in backticks (`name`), drawn with the code as code. */

/** `text` with each `backticked` part as `<code>`, without the backticks. */
export function CodeText({ text }: { text: string }) {
  const parts = text.split(/`([^`\n]+)`/);
  if (parts.length === 1) return <>{text}</>;
  return <>{parts.map((part, i) => i % 2 === 1 ? <code key={i}>{part}</code> : part)}</>;
}
