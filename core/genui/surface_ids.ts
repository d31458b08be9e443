/** Surface ids that stay unique within a chat run or a generation (no A2UI code: cheap to load). */

/** Allocates surface ids unique within one run (or one preview). */
export class SurfaceIds {
  readonly #prefix: string;
  readonly #used = new Set<string>();

  constructor(prefix = "surface") {
    this.#prefix = prefix;
  }

  /** The requested id if it is still free, else it with `-2`, `-3`...; a fresh one without. */
  next(requested?: string): string {
    let id = requested ?? `${this.#prefix}-${this.#used.size + 1}`;
    for (let n = 2; this.#used.has(id); n++) id = `${requested ?? this.#prefix}-${n}`;
    this.#used.add(id);
    return id;
  }
}
