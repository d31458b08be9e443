/** How `lass chat` shows a turn as text: the answer on stdout, tool calls and errors on stderr. */
import type { ChatChunk } from "../../wire/chat.ts";
import { priceWords, tokenCount } from "../../wire/usage.ts";

const encoder = new TextEncoder();

/** Stdout was closed by its reader (`lass chat ... | head -1`): nothing more can be shown. */
export class StdoutClosed extends Error {}

/** Writes all of a text to stdout (one call may write only part of it to a full pipe). */
export function print(text: string): void {
  let bytes = encoder.encode(text);
  try {
    while (bytes.length > 0) bytes = bytes.subarray(Deno.stdout.writeSync(bytes));
  } catch (error) {
    if (error instanceof Deno.errors.BrokenPipe) throw new StdoutClosed("stdout was closed");
    throw error;
  }
}

/** The longest tool input or result shown on stderr. */
const SHOWN = 200;

/** A value on one line, clipped. */
function oneLine(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > SHOWN ? `${flat.slice(0, SHOWN - 1)}…` : flat;
}

/** Writes a turn's chunks as text: the answer on stdout, tool calls and errors on stderr. */
export class TextOutput {
  /** The last character written to stdout ("" before any). */
  #last = "";
  /** A step ended since the last text: the next text starts on a new line. */
  #stepEnded = false;

  write(chunk: ChatChunk): void {
    switch (chunk.type) {
      case "start":
        for (const gap of chunk.unavailable ?? []) {
          console.error(
            gap.tool
              ? `lass: tool ${gap.serverId}.${gap.tool} left out: ${gap.error}`
              : `lass: tool server ${gap.serverId} left out (${gap.status}): ${gap.error}`,
          );
        }
        break;
      case "text":
        if (this.#stepEnded && this.#last !== "" && this.#last !== "\n") this.#out("\n");
        this.#stepEnded = false;
        this.#out(chunk.text);
        break;
      case "step":
        this.#stepEnded = true;
        break;
      case "tool-call":
        this.#endLine();
        console.error(`→ ${chunk.source}.${chunk.tool} ${oneLine(chunk.input)}`);
        break;
      case "tool-result": {
        const shown = chunk.ending === "denied"
          ? "denied"
          : `${chunk.isError ? "error: " : ""}${oneLine(chunk.output)}`;
        console.error(`← ${shown}`);
        break;
      }
      case "error":
        this.#endLine();
        console.error(`lass: the turn failed: ${chunk.message}`);
        break;
      case "finish":
        this.#endLine();
        console.error(`— ${tokenCount(chunk.usage)} tokens · ${priceWords(chunk)}`);
        break;
    }
  }

  /** Ends the answer's line, so the next output starts on its own. */
  #endLine(): void {
    if (this.#last !== "" && this.#last !== "\n") this.#out("\n");
  }

  #out(text: string): void {
    if (text === "") return;
    print(text);
    this.#last = text.at(-1)!;
  }
}
