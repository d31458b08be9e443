/**
 * A whole command line pasted into a stdio server's Command field (`npx -y @scope/server --flag`),
 * split into the command and its arguments as a POSIX shell would split the words.
 */

/** The words of a command line: quotes group, a backslash escapes; `null` for an open quote. */
export function splitCommandLine(line: string): string[] | null {
  const words: string[] = [];
  let word = "";
  let started = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote === "'") {
      if (char === "'") quote = null;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = null;
      else if (char === "\\" && /["\\$`]/.test(line[i + 1] ?? "")) word += line[++i];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      started = true;
    } else if (char === "\\" && i + 1 < line.length) {
      word += line[++i];
      started = true;
    } else if (/\s/.test(char)) {
      if (started) words.push(word);
      word = "";
      started = false;
    } else {
      word += char;
      started = true;
    }
  }
  if (quote) return null;
  if (started) words.push(word);
  return words;
}

/**
 * The command and arguments of a Command field's value, when it holds more than one word and
 * can be split; `undefined` when it is one command (or an unfinished quote).
 */
export function commandParts(value: string): { command: string; args: string[] } | undefined {
  const words = splitCommandLine(value.trim());
  if (!words || words.length < 2) return undefined;
  return { command: words[0], args: words.slice(1) };
}

/** Characters a POSIX shell reads as part of a plain word. */
const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

/**
 * One word as a shell would need it typed: a plain word as it is, anything else (spaces, quotes,
 * `$`, `;`, an empty word) in single quotes, a single quote inside as `'\''`.
 */
export function shellQuote(word: string): string {
  return PLAIN_WORD.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A command and its arguments as one command line, each word shell-quoted. */
export function commandLineOf(command: unknown, args: unknown): string {
  const words = [command, ...(Array.isArray(args) ? args : [])].map(String);
  return words.map(shellQuote).join(" ");
}
