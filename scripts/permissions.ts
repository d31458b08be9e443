/**
 * How Lass is run: the permissions and the V8 flag of `deno task start` and `deno task lass`
 * (deno.json, checked by a test), also in the bundle's run line and the compiled binary, and used
 * by the tests and benches that start Lass as a user would.
 */
export const START_PERMISSIONS = [
  "--allow-net",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-run",
  "--allow-sys=hostname,networkInterfaces",
];

/**
 * The old generation's ceiling, 1.5 GB (V8's default is a quarter of the machine's memory, up to
 * 4 GB). Below 2 GB V8 grows its heap by 1.3-2 times what lived at its last full collection
 * instead of 4 times, and keeps a smaller young generation: in `bench/scale_bench.ts` (bursts of
 * 1,000 chat turns) Lass peaked at 337-346 MB instead of 425-477 MB, for 10-20% more CPU per turn
 * (runs interleaved). A live heap past 1.5 GB would end the process; what Lass keeps is bounded
 * far below that.
 */
export const START_V8_FLAGS = ["--v8-flags=--max-old-space-size=1536"];

/** The arguments before the script in every documented way of running Lass. */
export const START_RUN = [...START_V8_FLAGS, ...START_PERMISSIONS];

/**
 * What `deno task start` and `deno task lass` pass to `deno run main.ts`: lazy dynamic imports
 * (a start loads only what it runs, not every module an `import()` names), the V8 flag, then the
 * permissions.
 */
export const START_FLAGS = ["--unstable-lazy-dynamic-imports", ...START_RUN];
