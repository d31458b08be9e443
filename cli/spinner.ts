/** A progress line on stderr, shown only when stderr is a terminal (never in logs or pipes). */

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const encoder = new TextEncoder();

/** A spinner with a label; `stop()` clears its line so other output starts on a clean one. */
export class Spinner {
  readonly #enabled = Deno.stderr.isTerminal();
  #timer: ReturnType<typeof setInterval> | undefined;
  #frame = 0;
  #label = "";

  /** Shows (or relabels) the spinner. */
  start(label: string): void {
    this.#label = label;
    if (!this.#enabled || this.#timer !== undefined) return;
    this.#draw();
    this.#timer = setInterval(() => this.#draw(), 80);
  }

  /** Hides the spinner and clears its line. */
  stop(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    Deno.stderr.writeSync(encoder.encode("\r\x1b[2K"));
  }

  #draw(): void {
    const frame = FRAMES[this.#frame++ % FRAMES.length];
    Deno.stderr.writeSync(encoder.encode(`\r\x1b[2K${frame} ${this.#label}`));
  }
}
