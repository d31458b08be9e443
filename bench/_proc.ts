/** What the benches read of processes on Linux: the command line's numbers, a process tree's CPU and memory. */

/** The number after `name` on the command line, or `fallback`. */
export function flag(name: string, fallback: number): number {
  const index = Deno.args.indexOf(name);
  return index >= 0 ? Number(Deno.args[index + 1]) : fallback;
}

/** Every process's parent, from `/proc/<pid>/stat`. */
async function parents(): Promise<Map<number, number>> {
  const found = new Map<number, number>();
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`).catch(() => "");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields.length > 2) found.set(Number(entry.name), Number(fields[1]));
  }
  return found;
}

/** A process and its descendants. */
export async function tree(root: number): Promise<number[]> {
  const parentOf = await parents();
  const pids = [root];
  for (let i = 0; i < pids.length; i++) {
    for (const [pid, parent] of parentOf) if (parent === pids[i]) pids.push(pid);
  }
  return pids;
}

/** User and system CPU of a process tree so far, in ms (clock ticks of 10 ms). */
export async function cpuMs(root: number): Promise<number> {
  let ticks = 0;
  for (const pid of await tree(root)) {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of stat(5); `fields` starts at field 3.
    if (fields.length > 13) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks * 10;
}

/** The resident memory of a process tree (or of the process alone), in MB. */
export async function rssMb(root: number, options: { alone?: boolean } = {}): Promise<number> {
  let kb = 0;
  for (const pid of options.alone ? [root] : await tree(root)) {
    const status = await Deno.readTextFile(`/proc/${pid}/status`).catch(() => "");
    kb += Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
  }
  return kb / 1024;
}

/** How often {@link watchPeakRss} samples the RSS. */
const RSS_SAMPLE_MS = 10;

/**
 * Tracks the peak RSS of a process tree (or of the process alone) from now on: resets the root's
 * high-water mark VmHWM (writing 5 to `clear_refs`, allowed on our own children) and samples the
 * RSS besides; `stop` gives the highest of the samples, the high-water mark and the RSS then.
 */
export async function watchPeakRss(
  root: number,
  options: { alone?: boolean } = {},
): Promise<{ stop(): Promise<number> }> {
  const reset = await Deno.writeTextFile(`/proc/${root}/clear_refs`, "5").then(
    () => true,
    () => false,
  );
  let peak = 0;
  let sampling = Promise.resolve();
  const timer = setInterval(() => {
    sampling = rssMb(root, options).then((mb) => void (peak = Math.max(peak, mb)));
  }, RSS_SAMPLE_MS);
  return {
    stop: async () => {
      clearInterval(timer);
      await sampling;
      const status = reset ? await Deno.readTextFile(`/proc/${root}/status`).catch(() => "") : "";
      const hwm = Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) / 1024;
      return Math.max(peak, hwm, await rssMb(root, options));
    },
  };
}
