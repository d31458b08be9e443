/**
 * Admission of model runs by load. Up to `floor` runs go at once; beyond that the limit grows
 * while Lass has CPU to spare and shrinks while it has none. A CPU-bound burst (a thousand turns
 * at once on the in-process demo model) then runs a few turns at a time while the rest wait,
 * instead of every turn slowing the others down and holding its memory; turns that mostly wait
 * for a vendor's network leave the CPU idle, so the limit grows out of their way. A waiting turn
 * has already sent its `start` chunk.
 */

/** Settings of a {@link ModelAdmission}; the defaults suit a 2-core machine and up. */
export interface AdmissionOptions {
  /** Runs admitted whatever the load (default 4). */
  floor?: number;
  /** The limit to begin with (default 8). */
  initial?: number;
  /** How often the load is sampled while runs are active, in ms (default 50). */
  sampleMs?: number;
  /** A CPU share (CPU time / wall time, 1 = one core) above which the limit shrinks (default 0.85). */
  busyShare?: number;
  /** A CPU share below which the limit grows while runs wait (default 0.5). */
  idleShare?: number;
  /** The process's CPU time so far, in ms; default `process.cpuUsage()` of `node:process`. */
  cpuMs?: () => Promise<number>;
}

interface Waiter {
  admit: () => void;
  signal?: AbortSignal;
  onAbort: () => void;
}

/** Lets model runs start as fast as the CPU keeps up; the rest wait in order. */
export class ModelAdmission {
  readonly #floor: number;
  readonly #sampleMs: number;
  readonly #busyShare: number;
  readonly #idleShare: number;
  readonly #cpuMs: () => Promise<number>;
  #limit: number;
  #active = 0;
  readonly #waiting: Waiter[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: AdmissionOptions = {}) {
    this.#floor = options.floor ?? 4;
    this.#limit = Math.max(this.#floor, options.initial ?? 8);
    this.#sampleMs = options.sampleMs ?? 50;
    this.#busyShare = options.busyShare ?? 0.85;
    this.#idleShare = options.idleShare ?? 0.5;
    this.#cpuMs = options.cpuMs ?? processCpuMs;
  }

  /** Runs going now, runs waiting, and how many may go at once. */
  get load(): { active: number; waiting: number; limit: number } {
    return { active: this.#active, waiting: this.#waiting.length, limit: this.#limit };
  }

  /**
   * Waits until the run may start and answers its `leave` (call it once, when the run ends).
   * Rejects with the signal's reason when it is aborted while the run waits.
   */
  enter(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#active < this.#limit && this.#waiting.length === 0) {
      return Promise.resolve(this.#admitted());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => resolve(this.#admitted()),
        signal,
        onAbort: () => {
          this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
          reject(signal!.reason);
        },
      };
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      this.#waiting.push(waiter);
      this.#sample();
    });
  }

  /**
   * Takes one sample of the CPU share Lass used since the last one (1 = one core busy): the
   * limit shrinks (to no less than the floor) when it is high, and grows when it is low and runs
   * are waiting.
   */
  observe(cpuShare: number): void {
    if (cpuShare > this.#busyShare) {
      this.#limit = Math.max(this.#floor, Math.floor(this.#limit * 0.75));
    } else if (
      cpuShare < this.#idleShare && this.#waiting.length > 0 && this.#active >= this.#limit
    ) {
      this.#limit = Math.ceil(this.#limit * 1.5);
    }
    this.#drain();
  }

  #admitted(): () => void {
    this.#active++;
    this.#sample();
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#active--;
      this.#drain();
      if (this.#active === 0 && this.#waiting.length === 0) {
        clearTimeout(this.#timer);
        this.#timer = undefined;
      }
    };
  }

  #drain(): void {
    while (this.#waiting.length > 0 && this.#active < this.#limit) {
      const waiter = this.#waiting.shift()!;
      waiter.signal?.removeEventListener("abort", waiter.onAbort);
      waiter.admit();
    }
  }

  /** Samples the load while runs are active or waiting; no timer runs when Lass is idle. */
  #sample(): void {
    if (this.#timer !== undefined) return;
    const started = performance.now();
    const cpuBefore = this.#cpuMs();
    this.#timer = setTimeout(async () => {
      // Cleared first: a run that starts while the CPU time is read starts the next sample.
      this.#timer = undefined;
      const cpu = await this.#cpuMs() - await cpuBefore;
      this.observe(cpu / (performance.now() - started));
      if (this.#active > 0 || this.#waiting.length > 0) this.#sample();
    }, this.#sampleMs);
  }
}

let processModule: Promise<typeof import("node:process")> | undefined;

/** User and system CPU time of this process in ms; `node:process` loads with the first sample. */
async function processCpuMs(): Promise<number> {
  const process = await (processModule ??= import("node:process"));
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
