/**
 * Where things are in a JSON text, by line: the line of a dotted path (`llms.0.baseURL`) for the
 * 400 details of a config write, and the line of a `JSON.parse` error.
 */

/** The offset of every path's key (members) or value (array items and the root) in valid JSON. */
function pathOffsets(text: string): Map<string, number> {
  const offsets = new Map<string, number>();
  let i = 0;
  const skip = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const readString = (): string => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const child = (path: string, key: string | number) => path === "" ? `${key}` : `${path}.${key}`;
  const value = (path: string): void => {
    skip();
    if (!offsets.has(path)) offsets.set(path, i);
    const char = text[i];
    if (char === "{") {
      i++;
      skip();
      while (i < text.length && text[i] !== "}") {
        const at = i;
        const key = readString();
        offsets.set(child(path, key), at);
        skip();
        i++; // ':'
        value(child(path, key));
        skip();
        if (text[i] === ",") i++;
        skip();
      }
      i++;
    } else if (char === "[") {
      i++;
      skip();
      let index = 0;
      while (i < text.length && text[i] !== "]") {
        value(child(path, index++));
        skip();
        if (text[i] === ",") i++;
        skip();
      }
      i++;
    } else if (char === '"') readString();
    else {
      while (i < text.length && !/[\s,\]}]/.test(text[i])) i++;
    }
  };
  value("");
  return offsets;
}

/** The 1-based line of an offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === "\n") line++;
  return line;
}

/**
 * The line of each dotted path in valid JSON `text`; a path that is not there (a missing field)
 * gets the line of its nearest parent that is. Paths with no place at all are left out.
 */
export function linesOfPaths(text: string, paths: string[]): Map<string, number> {
  const lines = new Map<string, number>();
  let offsets: Map<string, number>;
  try {
    offsets = pathOffsets(text);
  } catch {
    return lines;
  }
  for (const path of paths) {
    let probe = path;
    while (!offsets.has(probe) && probe !== "") {
      const dot = probe.lastIndexOf(".");
      probe = dot < 0 ? "" : probe.slice(0, dot);
    }
    const offset = offsets.get(probe);
    if (offset !== undefined) lines.set(path, lineAt(text, offset));
  }
  return lines;
}

/** Where a `JSON.parse` error is: the line and column its message names, if any. */
export function parseErrorPlace(
  text: string,
  message: string,
): { line: number; column: number } | undefined {
  const named = /line (\d+) column (\d+)/.exec(message);
  if (named) return { line: Number(named[1]), column: Number(named[2]) };
  const position = /position (\d+)/.exec(message);
  if (!position) return undefined;
  const offset = Number(position[1]);
  const line = lineAt(text, offset);
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return { line, column: offset - start + 1 };
}

/** The offsets where 1-based line `line` starts and ends in `text`. */
export function lineRange(text: string, line: number): [number, number] {
  let start = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf("\n", start);
    if (next < 0) break;
    start = next + 1;
  }
  const end = text.indexOf("\n", start);
  return [start, end < 0 ? text.length : end];
}
