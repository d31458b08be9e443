/** Tiny text helpers that the server, the web UI and the CLI share, so all word a count the same way. */

/** `1 model`, `2 models`; `many` for words whose plural is not `<word>s`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
