/**
 * Gives the heap back once the service has gone quiet. V8 lets its heap grow to several times
 * what lived at its last full collection, and under Deno it never runs its memory reducer, which
 * in a browser or in Node collects a heap that stopped growing (checked with
 * `--trace-memory-reducer`: nothing runs, and garbage stays for as long as the process idles).
 * After bursts of 1,000 chat turns a Lass process held some 240 MB of garbage for good
 * (`bench/scale_bench.ts`). This watcher reads the heap's size every second; when it grew by more
 * than a threshold since the last full collection and then held still for five seconds (no request
 * is allocating), it collects.
 *
 * The wait is long on purpose: Deno's `gc()` is V8's low-memory collection, which also drops the
 * object shapes that optimized code was compiled for, and the next burst pays for compiling it
 * again (a fifth to a quarter more CPU per turn when it ran between bursts a second apart).
 */

/** How often the heap's size is read. */
const TICK_MS = 1000;
/** Readings in a row with the heap still before it is collected. */
const QUIET_TICKS = 5;
/** The growth since the last full collection that is worth one (a full collection of Lass's
 * live heap, some 50 MB, takes 50-100 ms). */
const GROWTH_BYTES = 64 * 1024 * 1024;
/** A heap that changed less than this in a tick is still: the watcher's own reading allocates a
 * little, a request being served far more. */
const STILL_BYTES = 1024 * 1024;

/** The thresholds of {@link QuietHeapRule}. */
export interface QuietHeapLimits {
  growthBytes: number;
  stillBytes: number;
  quietTicks: number;
}

/**
 * The watcher's rule, apart from its timer: fed the heap's size at each tick, says when to
 * collect. A collection by V8 itself lowers the mark that growth counts from.
 */
export class QuietHeapRule {
  #floor: number;
  #previous: number;
  #quiet = 0;
  readonly #limits: QuietHeapLimits;

  constructor(used: number, limits: Partial<QuietHeapLimits> = {}) {
    this.#floor = this.#previous = used;
    this.#limits = {
      growthBytes: GROWTH_BYTES,
      stillBytes: STILL_BYTES,
      quietTicks: QUIET_TICKS,
      ...limits,
    };
  }

  /** Takes a tick's reading; true when the heap should be collected now. */
  tick(used: number): boolean {
    const still = Math.abs(used - this.#previous) < this.#limits.stillBytes;
    this.#quiet = still ? this.#quiet + 1 : 0;
    this.#previous = used;
    this.#floor = Math.min(this.#floor, used);
    return this.#quiet >= this.#limits.quietTicks && used - this.#floor > this.#limits.growthBytes;
  }

  /** Takes the heap's size after a collection as the new mark. */
  collected(used: number): void {
    this.#floor = this.#previous = used;
    this.#quiet = 0;
  }
}

/**
 * V8's `gc()`, which Deno gives a script only with a command-line flag: the flag is set at run
 * time (so every way of running Lass has it), the function taken from a new context (a context
 * gets it when it is created), and the flag cleared again, so that no later context has a `gc`.
 */
export async function exposedGc(): Promise<() => void> {
  const [v8, vm] = await Promise.all([import("node:v8"), import("node:vm")]);
  v8.setFlagsFromString("--expose-gc");
  try {
    return vm.runInNewContext("gc");
  } finally {
    v8.setFlagsFromString("--no-expose-gc");
  }
}

/** What {@link reduceHeapWhenQuiet} reads and does; the defaults are the process's own. */
export interface HeapWatch {
  tickMs: number;
  limits: Partial<QuietHeapLimits>;
  heapUsed: () => number;
  collect: () => Promise<void>;
}

/** Watches the heap until `signal` aborts, collecting it once the service has gone quiet. */
export function reduceHeapWhenQuiet(signal: AbortSignal, watch: Partial<HeapWatch> = {}): void {
  const heapUsed = watch.heapUsed ?? (() => Deno.memoryUsage().heapUsed);
  let gc: Promise<() => void> | undefined;
  const collect = watch.collect ?? (async () => (await (gc ??= exposedGc()))());
  const rule = new QuietHeapRule(heapUsed(), watch.limits);
  let collecting = false;
  const timer = setInterval(async () => {
    if (collecting || !rule.tick(heapUsed())) return;
    collecting = true;
    try {
      await collect();
      rule.collected(heapUsed());
    } catch {
      // A Deno without a way to collect: V8 keeps its own pace.
      clearInterval(timer);
    } finally {
      collecting = false;
    }
  }, watch.tickMs ?? TICK_MS);
  // The watcher never holds the process open.
  Deno.unrefTimer(timer);
  signal.addEventListener("abort", () => clearInterval(timer), { once: true });
}
