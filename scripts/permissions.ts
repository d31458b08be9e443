/**
 * The permissions Lass runs with: those of `deno task start` and `deno task lass` (deno.json,
 * checked by a test), given to the compiled binary and used by the tests and benches that start
 * Lass as a user would.
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
 * What `deno task start` and `deno task lass` pass to `deno run main.ts`: lazy dynamic imports
 * (a start loads only what it runs, not every module an `import()` names), then the permissions.
 */
export const START_FLAGS = ["--unstable-lazy-dynamic-imports", ...START_PERMISSIONS];
